// GET /ims/oneroster/gradebook/v1p2/categories/{sourcedId}
import { getCategory } from '../../shared/oneroster/gradebook';
import { oneRosterApi } from '../../shared/wiring/oneroster-api';
import { rosterReader } from '../../shared/wiring/roster-reader';

export const handler = oneRosterApi('get-oneroster-category', (request) =>
  getCategory(request, rosterReader(request, 'categories')),
);
