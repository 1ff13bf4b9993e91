// PUT /ims/oneroster/gradebook/v1p2/results/{sourcedId}
import { gradebookWriteRoute } from '../../shared/oneroster/gradebook-write-routes';
import { putResult } from '../../shared/oneroster/gradebook-writes';
import { oneRosterWriteApi } from '../../shared/wiring/oneroster-write-api';
import { recordWriter } from '../../shared/wiring/record-writer';

export const handler = oneRosterWriteApi(gradebookWriteRoute('put-oneroster-result'), (request) =>
  putResult(request, recordWriter()),
);
