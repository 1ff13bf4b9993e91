// GET /ims/oneroster/gradebook/v1p2/classes/{classSourcedId}/lineItems
import { listLineItemsOfClass } from '../../shared/oneroster/gradebook';
import { oneRosterApi } from '../../shared/wiring/oneroster-api';
import { rosterReader } from '../../shared/wiring/roster-reader';

export const handler = oneRosterApi('list-oneroster-line-items-of-class', (request) =>
  listLineItemsOfClass(request, rosterReader(request)),
);
