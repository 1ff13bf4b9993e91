// GET /ims/oneroster/rostering/v1p2/students/{sourcedId}
import { getUser } from '../../shared/oneroster/rostering';
import { api } from '../../shared/wiring/api';
import { rosterReader } from '../../shared/wiring/roster-reader';

export const handler = api('get-oneroster-student', (request) => getUser(request, rosterReader(), 'student'));
