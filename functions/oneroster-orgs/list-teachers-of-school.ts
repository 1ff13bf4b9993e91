// GET /ims/oneroster/rostering/v1p2/schools/{sourcedId}/teachers
import { listUsersOfSchool } from '../../shared/oneroster/rostering-classes';
import { api } from '../../shared/wiring/api';
import { rosterReader } from '../../shared/wiring/roster-reader';

export const handler = api('list-oneroster-teachers-of-school', (request) =>
  listUsersOfSchool(request, rosterReader(), 'teacher'),
);
