// PUT /ims/oneroster/gradebook/v1p2/results/{sourcedId}
import { gradebookWriteRoute } from '../../shared/oneroster/gradebook-write-routes';
import { putResult } from '../../shared/oneroster/gradebook-writes';
import { oneRosterRouteApi } from '../../shared/wiring/oneroster-route-api';
import { recordWriter } from '../../shared/wiring/record-writer';

export const handler = oneRosterRouteApi(gradebookWriteRoute('put-oneroster-result'), (request) =>
  putResult(request, recordWriter()),
);
