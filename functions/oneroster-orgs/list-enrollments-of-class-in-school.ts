// GET /ims/oneroster/rostering/v1p2/schools/{sourcedId}/classes/{classSourcedId}/enrollments
import { listEnrollments } from '../../shared/oneroster/rostering-classes';
import { oneRosterApi } from '../../shared/wiring/oneroster-api';
import { rosterReader } from '../../shared/wiring/roster-reader';

export const handler = oneRosterApi('list-oneroster-enrollments-of-class-in-school', (request) =>
  listEnrollments(request, rosterReader(request), 'class'),
);
