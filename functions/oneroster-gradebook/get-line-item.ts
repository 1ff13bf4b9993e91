// GET /ims/oneroster/gradebook/v1p2/lineItems/{sourcedId}
import { getLineItem } from '../../shared/oneroster/gradebook';
import { oneRosterApi } from '../../shared/wiring/oneroster-api';
import { rosterReader } from '../../shared/wiring/roster-reader';

export const handler = oneRosterApi('get-oneroster-line-item', (request) =>
  getLineItem(request, rosterReader(request)),
);
