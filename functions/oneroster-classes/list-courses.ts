// GET /ims/oneroster/rostering/v1p2/courses
import { listCourses } from '../../shared/oneroster/rostering-classes';
import { api } from '../../shared/wiring/api';
import { rosterReader } from '../../shared/wiring/roster-reader';

export const handler = api('list-oneroster-courses', (request) => listCourses(request, rosterReader()));
