// GET /ims/oneroster/rostering/v1p2/academicSessions/{sourcedId}
import { getAcademicSession } from '../../shared/oneroster/rostering-classes';
import { api } from '../../shared/wiring/api';
import { rosterReader } from '../../shared/wiring/roster-reader';

export const handler = api('get-oneroster-academic-session', (request) =>
  getAcademicSession(request, rosterReader(), undefined),
);
