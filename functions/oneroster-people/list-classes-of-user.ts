// GET /ims/oneroster/rostering/v1p2/users/{sourcedId}/classes
import { listClasses } from '../../shared/oneroster/rostering-classes';
import { oneRosterApi } from '../../shared/wiring/oneroster-api';
import { rosterReader } from '../../shared/wiring/roster-reader';

export const handler = oneRosterApi('list-oneroster-classes-of-user', (request) =>
  listClasses(request, rosterReader(request), { by: 'user', role: undefined }),
);
