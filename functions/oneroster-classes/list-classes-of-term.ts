// GET /ims/oneroster/rostering/v1p2/terms/{sourcedId}/classes
import { listClasses } from '../../shared/oneroster/rostering-classes';
import { api } from '../../shared/wiring/api';
import { rosterReader } from '../../shared/wiring/roster-reader';

export const handler = api('list-oneroster-classes-of-term', (request) =>
  listClasses(request, rosterReader(), { by: 'term' }),
);
