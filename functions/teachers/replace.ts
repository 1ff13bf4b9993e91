// PUT /api/teachers/{teacher_id}
import { recordRoute } from '../../shared/record-routes';
import { replaceRecord } from '../../shared/records/write-records';
import { teacherInsertRequest } from '../../shared/schemas/requests';
import { recordWriter } from '../../shared/wiring/record-writer';
import { revocableApi } from '../../shared/wiring/revocable-api';

export const handler = revocableApi(recordRoute('replace-teachers'), (request) =>
  replaceRecord('teachers', teacherInsertRequest(), request, recordWriter()),
);
