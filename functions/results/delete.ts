// DELETE /api/results/{result_id}
import { deleteRecord } from '../../shared/records/write-records';
import { recordWriter } from '../../shared/wiring/record-writer';
import { revocableApi } from '../../shared/wiring/revocable-api';

export const handler = revocableApi('delete-results', (request) =>
  deleteRecord('results', request, recordWriter()),
);
