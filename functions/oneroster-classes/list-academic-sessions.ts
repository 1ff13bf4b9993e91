// GET /ims/oneroster/rostering/v1p2/academicSessions
import { listAcademicSessions } from '../../shared/oneroster/rostering-classes';
import { api } from '../../shared/wiring/api';
import { rosterReader } from '../../shared/wiring/roster-reader';

export const handler = api('list-oneroster-academic-sessions', (request) =>
  listAcademicSessions(request, rosterReader(), undefined),
);
