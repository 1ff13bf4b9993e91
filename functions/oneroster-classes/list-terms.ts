// GET /ims/oneroster/rostering/v1p2/terms
import { listAcademicSessions } from '../../shared/oneroster/rostering-classes';
import { oneRosterApi } from '../../shared/wiring/oneroster-api';
import { rosterReader } from '../../shared/wiring/roster-reader';

export const handler = oneRosterApi('list-oneroster-terms', (request) =>
  listAcademicSessions(request, rosterReader(request), 'term'),
);
