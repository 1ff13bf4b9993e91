// GET /ims/oneroster/gradebook/v1p2/scoreScales
import { listScoreScales } from '../../shared/oneroster/gradebook';
import { oneRosterApi } from '../../shared/wiring/oneroster-api';
import { rosterReader } from '../../shared/wiring/roster-reader';

export const handler = oneRosterApi('list-oneroster-score-scales', (request) =>
  listScoreScales(request, rosterReader(request, 'score_scales')),
);
