// GET /ims/oneroster/gradebook/v1p2/categories
import { listCategories } from '../../shared/oneroster/gradebook';
import { oneRosterApi } from '../../shared/wiring/oneroster-api';
import { rosterReader } from '../../shared/wiring/roster-reader';

export const handler = oneRosterApi('list-oneroster-categories', (request) =>
  listCategories(request, rosterReader(request, 'categories')),
);
