// GET /ims/oneroster/rostering/v1p2/orgs
import { listOrgs } from '../../shared/oneroster/rostering';
import { api } from '../../shared/wiring/api';
import { rosterReader } from '../../shared/wiring/roster-reader';

export const handler = api('list-oneroster-orgs', (request) => listOrgs(request, rosterReader(), undefined));
