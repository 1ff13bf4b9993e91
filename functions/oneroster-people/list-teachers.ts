// GET /ims/oneroster/rostering/v1p2/teachers
import { listUsers } from '../../shared/oneroster/rostering';
import { api } from '../../shared/wiring/api';
import { rosterReader } from '../../shared/wiring/roster-reader';

export const handler = api('list-oneroster-teachers', (request) =>
  listUsers(request, rosterReader(), 'teacher'),
);
