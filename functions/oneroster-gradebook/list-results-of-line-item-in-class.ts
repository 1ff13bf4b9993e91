// GET /ims/oneroster/gradebook/v1p2/classes/{classSourcedId}/lineItems/{lineItemSourcedId}/results
import { listResultsOfLineItemInClass } from '../../shared/oneroster/gradebook';
import { oneRosterApi } from '../../shared/wiring/oneroster-api';
import { rosterReader } from '../../shared/wiring/roster-reader';

export const handler = oneRosterApi('list-oneroster-results-of-line-item-in-class', (request) =>
  listResultsOfLineItemInClass(request, rosterReader(request)),
);
