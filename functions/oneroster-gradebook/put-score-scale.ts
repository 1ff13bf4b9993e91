// PUT /ims/oneroster/gradebook/v1p2/scoreScales/{sourcedId}
import { gradebookWriteRoute } from '../../shared/oneroster/gradebook-write-routes';
import { putScoreScale } from '../../shared/oneroster/gradebook-writes';
import { oneRosterWriteApi } from '../../shared/wiring/oneroster-write-api';
import { recordWriter } from '../../shared/wiring/record-writer';

export const handler = oneRosterWriteApi(gradebookWriteRoute('put-oneroster-score-scale'), (request) =>
  putScoreScale(request, recordWriter()),
);
