// PUT /api/categories/{category_id}
import { replaceRecord } from '../../shared/records/write-records';
import { categoryInsertRequest } from '../../shared/schemas/requests';
import { recordWriter } from '../../shared/wiring/record-writer';
import { revocableApi } from '../../shared/wiring/revocable-api';

export const handler = revocableApi('replace-categories', (request) =>
  replaceRecord('categories', categoryInsertRequest(), request, recordWriter()),
);
