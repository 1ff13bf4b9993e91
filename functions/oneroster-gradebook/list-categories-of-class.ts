// GET /ims/oneroster/gradebook/v1p2/classes/{classSourcedId}/categories
import { listCategoriesOfClass } from '../../shared/oneroster/gradebook';
import { oneRosterApi } from '../../shared/wiring/oneroster-api';
import { rosterReader } from '../../shared/wiring/roster-reader';

export const handler = oneRosterApi('list-oneroster-categories-of-class', (request) =>
  listCategoriesOfClass(request, rosterReader(request), rosterReader(request, 'categories')),
);
