// GET /ims/oneroster/rostering/v1p2/classes/{sourcedId}/teachers
import { listUsersOfClass } from '../../shared/oneroster/rostering-classes';
import { api } from '../../shared/wiring/api';
import { rosterReader } from '../../shared/wiring/roster-reader';

export const handler = api('list-oneroster-teachers-of-class', (request) =>
  listUsersOfClass(request, rosterReader(), 'teacher'),
);
