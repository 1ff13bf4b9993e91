// GET /ims/oneroster/rostering/v1p2/schools
import { listOrgs } from '../../shared/oneroster/rostering';
import { oneRosterApi } from '../../shared/wiring/oneroster-api';
import { rosterReader } from '../../shared/wiring/roster-reader';

export const handler = oneRosterApi('list-oneroster-schools', (request) =>
  listOrgs(request, rosterReader(request), 'school'),
);
