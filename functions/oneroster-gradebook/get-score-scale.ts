// GET /ims/oneroster/gradebook/v1p2/scoreScales/{sourcedId}
import { getScoreScale } from '../../shared/oneroster/gradebook';
import { oneRosterApi } from '../../shared/wiring/oneroster-api';
import { rosterReader } from '../../shared/wiring/roster-reader';

export const handler = oneRosterApi('get-oneroster-score-scale', (request) =>
  getScoreScale(request, rosterReader(request, 'score_scales')),
);
