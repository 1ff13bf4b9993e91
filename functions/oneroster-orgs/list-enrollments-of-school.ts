// GET /ims/oneroster/rostering/v1p2/schools/{sourcedId}/enrollments
import { listEnrollments } from '../../shared/oneroster/rostering-classes';
import { api } from '../../shared/wiring/api';
import { rosterReader } from '../../shared/wiring/roster-reader';

export const handler = api('list-oneroster-enrollments-of-school', (request) =>
  listEnrollments(request, rosterReader(), 'school'),
);
