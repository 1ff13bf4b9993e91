// GET /ims/oneroster/rostering/v1p2/demographics
import { listDemographics } from '../../shared/oneroster/rostering';
import { api } from '../../shared/wiring/api';
import { rosterReader } from '../../shared/wiring/roster-reader';

export const handler = api('list-oneroster-demographics', (request) =>
  listDemographics(request, rosterReader()),
);
