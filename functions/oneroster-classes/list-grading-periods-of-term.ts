// GET /ims/oneroster/rostering/v1p2/terms/{sourcedId}/gradingPeriods
import { listAcademicSessions } from '../../shared/oneroster/rostering-classes';
import { api } from '../../shared/wiring/api';
import { rosterReader } from '../../shared/wiring/roster-reader';

export const handler = api('list-oneroster-grading-periods-of-term', (request) =>
  listAcademicSessions(request, rosterReader(), 'grading_period', true),
);
