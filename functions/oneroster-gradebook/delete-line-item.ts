// DELETE /ims/oneroster/gradebook/v1p2/lineItems/{sourcedId}
import { gradebookWriteRoute } from '../../shared/oneroster/gradebook-write-routes';
import { deleteObject } from '../../shared/oneroster/gradebook-writes';
import { oneRosterWriteApi } from '../../shared/wiring/oneroster-write-api';
import { recordWriter } from '../../shared/wiring/record-writer';

const remove = deleteObject('line_items', 'lineItem');

export const handler = oneRosterWriteApi(gradebookWriteRoute('delete-oneroster-line-item'), (request) =>
  remove(request, recordWriter()),
);
