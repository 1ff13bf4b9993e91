// GET /ims/oneroster/rostering/v1p2/classes/{sourcedId}
import { getClass } from '../../shared/oneroster/rostering-classes';
import { oneRosterApi } from '../../shared/wiring/oneroster-api';
import { rosterReader } from '../../shared/wiring/roster-reader';

export const handler = oneRosterApi('get-oneroster-class', (request) =>
  getClass(request, rosterReader(request)),
);
