// GET /ims/oneroster/rostering/v1p2/orgs
import { listOrgs } from '../../shared/oneroster/rostering';
import { oneRosterApi } from '../../shared/wiring/oneroster-api';
import { rosterReader } from '../../shared/wiring/roster-reader';

export const handler = oneRosterApi('list-oneroster-orgs', (request) =>
  listOrgs(request, rosterReader(request), undefined),
);
