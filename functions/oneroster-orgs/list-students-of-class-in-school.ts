// GET /ims/oneroster/rostering/v1p2/schools/{sourcedId}/classes/{classSourcedId}/students
import { listUsersOfClass } from '../../shared/oneroster/rostering-classes';
import { api } from '../../shared/wiring/api';
import { rosterReader } from '../../shared/wiring/roster-reader';

export const handler = api('list-oneroster-students-of-class-in-school', (request) =>
  listUsersOfClass(request, rosterReader(), 'student'),
);
