// GET /ims/oneroster/gradebook/v1p2/classes/{classSourcedId}/scoreScales
import { listScoreScalesOfClass } from '../../shared/oneroster/gradebook';
import { oneRosterApi } from '../../shared/wiring/oneroster-api';
import { rosterReader } from '../../shared/wiring/roster-reader';

export const handler = oneRosterApi('list-oneroster-score-scales-of-class', (request) =>
  listScoreScalesOfClass(request, rosterReader(request), rosterReader(request, 'score_scales')),
);
