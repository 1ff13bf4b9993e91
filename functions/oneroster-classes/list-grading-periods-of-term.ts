// GET /ims/oneroster/rostering/v1p2/terms/{sourcedId}/gradingPeriods
import { listAcademicSessions } from '../../shared/oneroster/rostering-classes';
import { oneRosterApi } from '../../shared/wiring/oneroster-api';
import { rosterReader } from '../../shared/wiring/roster-reader';

export const handler = oneRosterApi('list-oneroster-grading-periods-of-term', (request) =>
  listAcademicSessions(request, rosterReader(request), 'grading_period', true),
);
