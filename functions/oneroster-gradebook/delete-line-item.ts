// DELETE /ims/oneroster/gradebook/v1p2/lineItems/{sourcedId}
import { deleteObject } from '../../shared/oneroster/gradebook-writes';
import { oneRosterApi } from '../../shared/wiring/oneroster-api';
import { recordWriter } from '../../shared/wiring/record-writer';

const remove = deleteObject('line_items', 'lineItem');

export const handler = oneRosterApi('delete-oneroster-line-item', (request) =>
  remove(request, recordWriter()),
);
