// DELETE /ims/oneroster/gradebook/v1p2/categories/{sourcedId}
import { deleteObject } from '../../shared/oneroster/gradebook-writes';
import { oneRosterApi } from '../../shared/wiring/oneroster-api';
import { recordWriter } from '../../shared/wiring/record-writer';

const remove = deleteObject('categories', 'category');

export const handler = oneRosterApi('delete-oneroster-category', (request) =>
  remove(request, recordWriter()),
);
