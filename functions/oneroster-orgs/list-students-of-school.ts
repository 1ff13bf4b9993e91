// GET /ims/oneroster/rostering/v1p2/schools/{sourcedId}/students
import { listUsersOfSchool } from '../../shared/oneroster/rostering-classes';
import { oneRosterApi } from '../../shared/wiring/oneroster-api';
import { rosterReader } from '../../shared/wiring/roster-reader';

export const handler = oneRosterApi('list-oneroster-students-of-school', (request) =>
  listUsersOfSchool(request, rosterReader(request), 'student'),
);
