// GET /ims/oneroster/rostering/v1p2/schools/{sourcedId}/terms
import { listTermsOfSchool } from '../../shared/oneroster/rostering-classes';
import { api } from '../../shared/wiring/api';
import { rosterReader } from '../../shared/wiring/roster-reader';

export const handler = api('list-oneroster-terms-of-school', (request) =>
  listTermsOfSchool(request, rosterReader()),
);
