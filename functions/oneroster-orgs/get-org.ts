// GET /ims/oneroster/rostering/v1p2/orgs/{sourcedId}
import { getOrg } from '../../shared/oneroster/rostering';
import { oneRosterApi } from '../../shared/wiring/oneroster-api';
import { rosterReader } from '../../shared/wiring/roster-reader';

export const handler = oneRosterApi('get-oneroster-org', (request) =>
  getOrg(request, rosterReader(request), undefined),
);
