// DELETE /ims/oneroster/gradebook/v1p2/results/{sourcedId}
import { deleteObject } from '../../shared/oneroster/gradebook-writes';
import { oneRosterApi } from '../../shared/wiring/oneroster-api';
import { recordWriter } from '../../shared/wiring/record-writer';

const remove = deleteObject('results', 'result');

export const handler = oneRosterApi('delete-oneroster-result', (request) => remove(request, recordWriter()));
