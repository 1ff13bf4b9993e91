// GET /ims/oneroster/rostering/v1p2/schools/{sourcedId}
import { getOrg } from '../../shared/oneroster/rostering';
import { api } from '../../shared/wiring/api';
import { rosterReader } from '../../shared/wiring/roster-reader';

export const handler = api('get-oneroster-school', (request) => getOrg(request, rosterReader(), 'school'));
