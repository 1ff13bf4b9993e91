// GET /ims/oneroster/gradebook/v1p2/results/{sourcedId}
import { getResult } from '../../shared/oneroster/gradebook';
import { oneRosterApi } from '../../shared/wiring/oneroster-api';
import { rosterReader } from '../../shared/wiring/roster-reader';

export const handler = oneRosterApi('get-oneroster-result', (request) =>
  getResult(request, rosterReader(request)),
);
