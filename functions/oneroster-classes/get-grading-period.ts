// GET /ims/oneroster/rostering/v1p2/gradingPeriods/{sourcedId}
import { getAcademicSession } from '../../shared/oneroster/rostering-classes';
import { api } from '../../shared/wiring/api';
import { rosterReader } from '../../shared/wiring/roster-reader';

export const handler = api('get-oneroster-grading-period', (request) =>
  getAcademicSession(request, rosterReader(), 'grading_period'),
);
