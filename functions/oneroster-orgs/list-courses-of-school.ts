// GET /ims/oneroster/rostering/v1p2/schools/{sourcedId}/courses
import { listCourses } from '../../shared/oneroster/rostering-classes';
import { oneRosterApi } from '../../shared/wiring/oneroster-api';
import { rosterReader } from '../../shared/wiring/roster-reader';

export const handler = oneRosterApi('list-oneroster-courses-of-school', (request) =>
  listCourses(request, rosterReader(request), true),
);
