// PUT /api/results/{result_id}
import { replaceRecord } from '../../shared/records/write-records';
import { resultInsertRequest } from '../../shared/schemas/requests';
import { recordWriter } from '../../shared/wiring/record-writer';
import { revocableApi } from '../../shared/wiring/revocable-api';

export const handler = revocableApi('replace-results', (request) =>
  replaceRecord('results', resultInsertRequest(), request, recordWriter()),
);
