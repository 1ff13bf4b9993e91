// GET /ims/oneroster/rostering/v1p2/schools/{sourcedId}/students
import { listUsersOfSchool } from '../../shared/oneroster/rostering-classes';
import { api } from '../../shared/wiring/api';
import { rosterReader } from '../../shared/wiring/roster-reader';

export const handler = api('list-oneroster-students-of-school', (request) =>
  listUsersOfSchool(request, rosterReader(), 'student'),
);
