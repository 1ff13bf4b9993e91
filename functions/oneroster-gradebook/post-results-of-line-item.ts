// POST /ims/oneroster/gradebook/v1p2/lineItems/{lineItemSourcedId}/results
import { postResultsOfLineItem } from '../../shared/oneroster/gradebook-writes';
import { oneRosterApi } from '../../shared/wiring/oneroster-api';
import { recordWriter } from '../../shared/wiring/record-writer';

export const handler = oneRosterApi('post-oneroster-results-of-line-item', (request) =>
  postResultsOfLineItem(request, recordWriter()),
);
