// GET /ims/oneroster/rostering/v1p2/enrollments/{sourcedId}
import { getEnrollment } from '../../shared/oneroster/rostering-classes';
import { oneRosterApi } from '../../shared/wiring/oneroster-api';
import { rosterReader } from '../../shared/wiring/roster-reader';

export const handler = oneRosterApi('get-oneroster-enrollment', (request) =>
  getEnrollment(request, rosterReader(request)),
);
