// GET /ims/oneroster/rostering/v1p2/schools/{sourcedId}/courses
import { listCourses } from '../../shared/oneroster/rostering-classes';
import { api } from '../../shared/wiring/api';
import { rosterReader } from '../../shared/wiring/roster-reader';

export const handler = api('list-oneroster-courses-of-school', (request) =>
  listCourses(request, rosterReader(), true),
);
