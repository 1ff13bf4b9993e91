// GET /ims/oneroster/gradebook/v1p2/schools/{schoolSourcedId}/scoreScales
import { listScoreScalesOfSchool } from '../../shared/oneroster/gradebook';
import { oneRosterApi } from '../../shared/wiring/oneroster-api';
import { rosterReader } from '../../shared/wiring/roster-reader';

export const handler = oneRosterApi('list-oneroster-score-scales-of-school', (request) =>
  listScoreScalesOfSchool(request, rosterReader(request), rosterReader(request, 'score_scales')),
);
