// GET /ims/oneroster/rostering/v1p2/schools/{sourcedId}/terms
import { listTermsOfSchool } from '../../shared/oneroster/rostering-classes';
import { oneRosterApi } from '../../shared/wiring/oneroster-api';
import { rosterReader } from '../../shared/wiring/roster-reader';

export const handler = oneRosterApi('list-oneroster-terms-of-school', (request) =>
  listTermsOfSchool(request, rosterReader(request)),
);
