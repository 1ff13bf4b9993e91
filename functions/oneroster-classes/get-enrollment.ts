// GET /ims/oneroster/rostering/v1p2/enrollments/{sourcedId}
import { getEnrollment } from '../../shared/oneroster/rostering-classes';
import { api } from '../../shared/wiring/api';
import { rosterReader } from '../../shared/wiring/roster-reader';

export const handler = api('get-oneroster-enrollment', (request) => getEnrollment(request, rosterReader()));
