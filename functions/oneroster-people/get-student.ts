// GET /ims/oneroster/rostering/v1p2/students/{sourcedId}
import { getUser } from '../../shared/oneroster/rostering';
import { oneRosterApi } from '../../shared/wiring/oneroster-api';
import { rosterReader } from '../../shared/wiring/roster-reader';

export const handler = oneRosterApi('get-oneroster-student', (request) =>
  getUser(request, rosterReader(request), 'student'),
);
