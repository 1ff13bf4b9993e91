// GET /ims/oneroster/rostering/v1p2/classes
import { listClasses } from '../../shared/oneroster/rostering-classes';
import { api } from '../../shared/wiring/api';
import { rosterReader } from '../../shared/wiring/roster-reader';

export const handler = api('list-oneroster-classes', (request) =>
  listClasses(request, rosterReader(), { by: 'all' }),
);
