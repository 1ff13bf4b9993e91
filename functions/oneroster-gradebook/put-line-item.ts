// PUT /ims/oneroster/gradebook/v1p2/lineItems/{sourcedId}
import { putLineItem } from '../../shared/oneroster/gradebook-writes';
import { oneRosterApi } from '../../shared/wiring/oneroster-api';
import { recordWriter } from '../../shared/wiring/record-writer';

export const handler = oneRosterApi('put-oneroster-line-item', (request) =>
  putLineItem(request, recordWriter()),
);
