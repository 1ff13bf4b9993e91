// GET /ims/oneroster/rostering/v1p2/demographics
import { listDemographics } from '../../shared/oneroster/rostering';
import { oneRosterApi } from '../../shared/wiring/oneroster-api';
import { rosterReader } from '../../shared/wiring/roster-reader';

export const handler = oneRosterApi('list-oneroster-demographics', (request) =>
  listDemographics(request, rosterReader(request)),
);
