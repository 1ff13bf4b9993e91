// GET /ims/oneroster/gradebook/v1p2/results
import { listResults } from '../../shared/oneroster/gradebook';
import { oneRosterApi } from '../../shared/wiring/oneroster-api';
import { rosterReader } from '../../shared/wiring/roster-reader';

export const handler = oneRosterApi('list-oneroster-results', (request) =>
  listResults(request, rosterReader(request)),
);
