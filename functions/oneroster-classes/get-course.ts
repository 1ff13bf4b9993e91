// GET /ims/oneroster/rostering/v1p2/courses/{sourcedId}
import { getCourse } from '../../shared/oneroster/rostering-classes';
import { api } from '../../shared/wiring/api';
import { rosterReader } from '../../shared/wiring/roster-reader';

export const handler = api('get-oneroster-course', (request) => getCourse(request, rosterReader()));
