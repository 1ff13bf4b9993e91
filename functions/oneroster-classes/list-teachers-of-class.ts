// GET /ims/oneroster/rostering/v1p2/classes/{sourcedId}/teachers
import { listUsersOfClass } from '../../shared/oneroster/rostering-classes';
import { oneRosterApi } from '../../shared/wiring/oneroster-api';
import { rosterReader } from '../../shared/wiring/roster-reader';

export const handler = oneRosterApi('list-oneroster-teachers-of-class', (request) =>
  listUsersOfClass(request, rosterReader(request), 'teacher'),
);
