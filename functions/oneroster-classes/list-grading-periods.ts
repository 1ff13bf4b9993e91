// GET /ims/oneroster/rostering/v1p2/gradingPeriods
import { listAcademicSessions } from '../../shared/oneroster/rostering-classes';
import { oneRosterApi } from '../../shared/wiring/oneroster-api';
import { rosterReader } from '../../shared/wiring/roster-reader';

export const handler = oneRosterApi('list-oneroster-grading-periods', (request) =>
  listAcademicSessions(request, rosterReader(request), 'grading_period'),
);
