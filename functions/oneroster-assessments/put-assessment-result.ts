// PUT /ims/oneroster/gradebook/v1p2/assessmentResults/{sourcedId}
import { putAssessmentResult } from '../../shared/oneroster/assessment-writes';
import { gradebookWriteRoute } from '../../shared/oneroster/gradebook-write-routes';
import { oneRosterWriteApi } from '../../shared/wiring/oneroster-write-api';
import { recordWriter } from '../../shared/wiring/record-writer';

export const handler = oneRosterWriteApi(gradebookWriteRoute('put-oneroster-assessment-result'), (request) =>
  putAssessmentResult(request, recordWriter()),
);
