// GET /ims/oneroster/rostering/v1p2/academicSessions/{sourcedId}
import { getAcademicSession } from '../../shared/oneroster/rostering-classes';
import { oneRosterApi } from '../../shared/wiring/oneroster-api';
import { rosterReader } from '../../shared/wiring/roster-reader';

export const handler = oneRosterApi('get-oneroster-academic-session', (request) =>
  getAcademicSession(request, rosterReader(request), undefined),
);
