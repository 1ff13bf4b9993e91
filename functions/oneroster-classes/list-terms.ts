// GET /ims/oneroster/rostering/v1p2/terms
import { listAcademicSessions } from '../../shared/oneroster/rostering-classes';
import { api } from '../../shared/wiring/api';
import { rosterReader } from '../../shared/wiring/roster-reader';

export const handler = api('list-oneroster-terms', (request) =>
  listAcademicSessions(request, rosterReader(), 'term'),
);
