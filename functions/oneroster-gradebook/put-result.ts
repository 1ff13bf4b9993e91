// PUT /ims/oneroster/gradebook/v1p2/results/{sourcedId}
import { putResult } from '../../shared/oneroster/gradebook-writes';
import { oneRosterApi } from '../../shared/wiring/oneroster-api';
import { recordWriter } from '../../shared/wiring/record-writer';

export const handler = oneRosterApi('put-oneroster-result', (request) => putResult(request, recordWriter()));
