// GET /ims/oneroster/rostering/v1p2/classes/{sourcedId}/students
import { listUsersOfClass } from '../../shared/oneroster/rostering-classes';
import { oneRosterApi } from '../../shared/wiring/oneroster-api';
import { rosterReader } from '../../shared/wiring/roster-reader';

export const handler = oneRosterApi('list-oneroster-students-of-class', (request) =>
  listUsersOfClass(request, rosterReader(request), 'student'),
);
