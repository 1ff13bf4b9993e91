// PUT /api/classes/{class_id}
import { replaceRecord } from '../../shared/records/write-records';
import { classInsertRequest } from '../../shared/schemas/requests';
import { recordWriter } from '../../shared/wiring/record-writer';
import { revocableApi } from '../../shared/wiring/revocable-api';

export const handler = revocableApi('replace-classes', (request) =>
  replaceRecord('classes', classInsertRequest(), request, recordWriter()),
);
