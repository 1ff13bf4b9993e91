// GET /ims/oneroster/gradebook/v1p2/assessmentResults/{sourcedId}
import { getAssessmentResult } from '../../shared/oneroster/assessments';
import { oneRosterApi } from '../../shared/wiring/oneroster-api';
import { rosterReader } from '../../shared/wiring/roster-reader';

export const handler = oneRosterApi('get-oneroster-assessment-result', (request) =>
  getAssessmentResult(request, rosterReader(request)),
);
