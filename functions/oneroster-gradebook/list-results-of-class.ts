// GET /ims/oneroster/gradebook/v1p2/classes/{classSourcedId}/results
import { listResultsOfClass } from '../../shared/oneroster/gradebook';
import { oneRosterApi } from '../../shared/wiring/oneroster-api';
import { rosterReader } from '../../shared/wiring/roster-reader';

export const handler = oneRosterApi('list-oneroster-results-of-class', (request) =>
  listResultsOfClass(request, rosterReader(request)),
);
