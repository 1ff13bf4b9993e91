// PUT /api/classes/{class_id}
import { replaceRecord } from '../../shared/records/write-records';
import { recordWriter } from '../../shared/wiring/record-writer';
import { revocableApi } from '../../shared/wiring/revocable-api';

export const handler = revocableApi('replace-classes', (request) =>
  replaceRecord('classes', request, recordWriter()),
);
