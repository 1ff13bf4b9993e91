// GET /ims/oneroster/rostering/v1p2/classes/{sourcedId}
import { getClass } from '../../shared/oneroster/rostering-classes';
import { api } from '../../shared/wiring/api';
import { rosterReader } from '../../shared/wiring/roster-reader';

export const handler = api('get-oneroster-class', (request) => getClass(request, rosterReader()));
