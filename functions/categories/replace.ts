// PUT /api/categories/{course_id}
import { replaceRecord } from '../../shared/records/write-records';
import { recordWriter } from '../../shared/wiring/record-writer';
import { revocableApi } from '../../shared/wiring/revocable-api';

export const handler = revocableApi('replace-categories', (request) =>
  replaceRecord('categories', request, recordWriter()),
);
