// GET /ims/oneroster/rostering/v1p2/demographics/{sourcedId}
import { getDemographics } from '../../shared/oneroster/rostering';
import { oneRosterApi } from '../../shared/wiring/oneroster-api';
import { rosterReader } from '../../shared/wiring/roster-reader';

export const handler = oneRosterApi('get-oneroster-demographics', (request) =>
  getDemographics(request, rosterReader(request)),
);
