// POST /ims/oneroster/gradebook/v1p2/lineItems/{lineItemSourcedId}/results
import { gradebookWriteRoute } from '../../shared/oneroster/gradebook-write-routes';
import { postResultsOfLineItem } from '../../shared/oneroster/gradebook-writes';
import { oneRosterWriteApi } from '../../shared/wiring/oneroster-write-api';
import { recordWriter } from '../../shared/wiring/record-writer';

export const handler = oneRosterWriteApi(
  gradebookWriteRoute('post-oneroster-results-of-line-item'),
  (request) => postResultsOfLineItem(request, recordWriter()),
);
