// GET /ims/oneroster/rostering/v1p2/terms/{sourcedId}/classes
import { listClasses } from '../../shared/oneroster/rostering-classes';
import { oneRosterApi } from '../../shared/wiring/oneroster-api';
import { rosterReader } from '../../shared/wiring/roster-reader';

export const handler = oneRosterApi('list-oneroster-classes-of-term', (request) =>
  listClasses(request, rosterReader(request), { by: 'term' }),
);
