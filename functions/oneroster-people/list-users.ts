// GET /ims/oneroster/rostering/v1p2/users
import { listUsers } from '../../shared/oneroster/rostering';
import { oneRosterApi } from '../../shared/wiring/oneroster-api';
import { rosterReader } from '../../shared/wiring/roster-reader';

export const handler = oneRosterApi('list-oneroster-users', (request) =>
  listUsers(request, rosterReader(request), undefined),
);
