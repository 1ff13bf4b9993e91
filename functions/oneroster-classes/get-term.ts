// GET /ims/oneroster/rostering/v1p2/terms/{sourcedId}
import { getAcademicSession } from '../../shared/oneroster/rostering-classes';
import { api } from '../../shared/wiring/api';
import { rosterReader } from '../../shared/wiring/roster-reader';

export const handler = api('get-oneroster-term', (request) =>
  getAcademicSession(request, rosterReader(), 'term'),
);
