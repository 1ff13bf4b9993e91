// GET /ims/oneroster/rostering/v1p2/terms/{sourcedId}
import { getAcademicSession } from '../../shared/oneroster/rostering-classes';
import { oneRosterApi } from '../../shared/wiring/oneroster-api';
import { rosterReader } from '../../shared/wiring/roster-reader';

export const handler = oneRosterApi('get-oneroster-term', (request) =>
  getAcademicSession(request, rosterReader(request), 'term'),
);
