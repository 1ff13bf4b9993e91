// GET /ims/oneroster/rostering/v1p2/demographics/{sourcedId}
import { getDemographics } from '../../shared/oneroster/rostering';
import { api } from '../../shared/wiring/api';
import { rosterReader } from '../../shared/wiring/roster-reader';

export const handler = api('get-oneroster-demographics', (request) =>
  getDemographics(request, rosterReader()),
);
