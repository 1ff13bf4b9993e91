// GET /ims/oneroster/rostering/v1p2/teachers/{sourcedId}/classes
import { listClasses } from '../../shared/oneroster/rostering-classes';
import { api } from '../../shared/wiring/api';
import { rosterReader } from '../../shared/wiring/roster-reader';

export const handler = api('list-oneroster-classes-of-teacher', (request) =>
  listClasses(request, rosterReader(), { by: 'user', role: 'teacher' }),
);
