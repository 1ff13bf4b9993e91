// GET /ims/oneroster/rostering/v1p2/students
import { listUsers } from '../../shared/oneroster/rostering';
import { api } from '../../shared/wiring/api';
import { rosterReader } from '../../shared/wiring/roster-reader';

export const handler = api('list-oneroster-students', (request) =>
  listUsers(request, rosterReader(), 'student'),
);
