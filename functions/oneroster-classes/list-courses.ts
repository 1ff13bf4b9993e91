// GET /ims/oneroster/rostering/v1p2/courses
import { listCourses } from '../../shared/oneroster/rostering-classes';
import { oneRosterApi } from '../../shared/wiring/oneroster-api';
import { rosterReader } from '../../shared/wiring/roster-reader';

export const handler = oneRosterApi('list-oneroster-courses', (request) =>
  listCourses(request, rosterReader(request)),
);
