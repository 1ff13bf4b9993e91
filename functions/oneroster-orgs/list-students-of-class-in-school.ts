// GET /ims/oneroster/rostering/v1p2/schools/{sourcedId}/classes/{classSourcedId}/students
import { listUsersOfClass } from '../../shared/oneroster/rostering-classes';
import { oneRosterApi } from '../../shared/wiring/oneroster-api';
import { rosterReader } from '../../shared/wiring/roster-reader';

export const handler = oneRosterApi('list-oneroster-students-of-class-in-school', (request) =>
  listUsersOfClass(request, rosterReader(request), 'student'),
);
