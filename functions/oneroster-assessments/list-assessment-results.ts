// GET /ims/oneroster/gradebook/v1p2/assessmentResults
import { listAssessmentResults } from '../../shared/oneroster/assessments';
import { oneRosterApi } from '../../shared/wiring/oneroster-api';
import { rosterReader } from '../../shared/wiring/roster-reader';

export const handler = oneRosterApi('list-oneroster-assessment-results', (request) =>
  listAssessmentResults(request, rosterReader(request)),
);
