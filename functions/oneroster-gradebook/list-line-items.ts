// GET /ims/oneroster/gradebook/v1p2/lineItems
import { listLineItems } from '../../shared/oneroster/gradebook';
import { oneRosterApi } from '../../shared/wiring/oneroster-api';
import { rosterReader } from '../../shared/wiring/roster-reader';

export const handler = oneRosterApi('list-oneroster-line-items', (request) =>
  listLineItems(request, rosterReader(request)),
);
