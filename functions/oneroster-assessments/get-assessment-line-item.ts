// GET /ims/oneroster/gradebook/v1p2/assessmentLineItems/{sourcedId}
import { getAssessmentLineItem } from '../../shared/oneroster/assessments';
import { oneRosterApi } from '../../shared/wiring/oneroster-api';
import { rosterReader } from '../../shared/wiring/roster-reader';

export const handler = oneRosterApi('get-oneroster-assessment-line-item', (request) =>
  getAssessmentLineItem(request, rosterReader(request)),
);
