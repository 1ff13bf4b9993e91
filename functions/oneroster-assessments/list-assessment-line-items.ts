// GET /ims/oneroster/gradebook/v1p2/assessmentLineItems
import { listAssessmentLineItems } from '../../shared/oneroster/assessments';
import { oneRosterApi } from '../../shared/wiring/oneroster-api';
import { rosterReader } from '../../shared/wiring/roster-reader';

export const handler = oneRosterApi('list-oneroster-assessment-line-items', (request) =>
  listAssessmentLineItems(request, rosterReader(request)),
);
