// PUT /api/classes/{class_id}
import { recordRoute } from '../../shared/record-routes';
import { replaceRecord } from '../../shared/records/write-records';
import { classInsertRequest } from '../../shared/schemas/requests';
import { recordWriter } from '../../shared/wiring/record-writer';
import { revocableApi } from '../../shared/wiring/revocable-api';

export const handler = revocableApi(recordRoute('replace-classes'), (request) =>
  replaceRecord('classes', classInsertRequest(), request, recordWriter()),
);
