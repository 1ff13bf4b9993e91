// GET /ims/oneroster/rostering/v1p2/schools/{sourcedId}/teachers
import { listUsersOfSchool } from '../../shared/oneroster/rostering-classes';
import { oneRosterApi } from '../../shared/wiring/oneroster-api';
import { rosterReader } from '../../shared/wiring/roster-reader';

export const handler = oneRosterApi('list-oneroster-teachers-of-school', (request) =>
  listUsersOfSchool(request, rosterReader(request), 'teacher'),
);
