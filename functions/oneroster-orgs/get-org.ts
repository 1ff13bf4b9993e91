// GET /ims/oneroster/rostering/v1p2/orgs/{sourcedId}
import { getOrg } from '../../shared/oneroster/rostering';
import { api } from '../../shared/wiring/api';
import { rosterReader } from '../../shared/wiring/roster-reader';

export const handler = api('get-oneroster-org', (request) => getOrg(request, rosterReader(), undefined));
