// PUT /ims/oneroster/gradebook/v1p2/categories/{sourcedId}
import { putCategory } from '../../shared/oneroster/gradebook-writes';
import { oneRosterApi } from '../../shared/wiring/oneroster-api';
import { recordWriter } from '../../shared/wiring/record-writer';

export const handler = oneRosterApi('put-oneroster-category', (request) =>
  putCategory(request, recordWriter()),
);
