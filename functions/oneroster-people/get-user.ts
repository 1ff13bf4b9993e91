// GET /ims/oneroster/rostering/v1p2/users/{sourcedId}
import { getUser } from '../../shared/oneroster/rostering';
import { api } from '../../shared/wiring/api';
import { rosterReader } from '../../shared/wiring/roster-reader';

export const handler = api('get-oneroster-user', (request) => getUser(request, rosterReader(), undefined));
