// GET /ims/oneroster/rostering/v1p2/courses/{sourcedId}
import { getCourse } from '../../shared/oneroster/rostering-classes';
import { oneRosterApi } from '../../shared/wiring/oneroster-api';
import { rosterReader } from '../../shared/wiring/roster-reader';

export const handler = oneRosterApi('get-oneroster-course', (request) =>
  getCourse(request, rosterReader(request)),
);
