// PUT /ims/oneroster/gradebook/v1p2/assessmentLineItems/{sourcedId}
import { putAssessmentLineItem } from '../../shared/oneroster/assessment-writes';
import { gradebookWriteRoute } from '../../shared/oneroster/gradebook-write-routes';
import { oneRosterWriteApi } from '../../shared/wiring/oneroster-write-api';
import { recordWriter } from '../../shared/wiring/record-writer';

export const handler = oneRosterWriteApi(
  gradebookWriteRoute('put-oneroster-assessment-line-item'),
  (request) => putAssessmentLineItem(request, recordWriter()),
);
