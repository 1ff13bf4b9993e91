// DELETE /ims/oneroster/gradebook/v1p2/results/{sourcedId}
import { gradebookWriteRoute } from '../../shared/oneroster/gradebook-write-routes';
import { deleteObject } from '../../shared/oneroster/gradebook-writes';
import { oneRosterWriteApi } from '../../shared/wiring/oneroster-write-api';
import { recordWriter } from '../../shared/wiring/record-writer';

const remove = deleteObject('results', 'result');

export const handler = oneRosterWriteApi(gradebookWriteRoute('delete-oneroster-result'), (request) =>
  remove(request, recordWriter()),
);
