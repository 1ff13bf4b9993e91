// PUT /api/students/{student_id}
import { replaceRecord } from '../../shared/records/write-records';
import { studentInsertRequest } from '../../shared/schemas/requests';
import { recordWriter } from '../../shared/wiring/record-writer';
import { revocableApi } from '../../shared/wiring/revocable-api';

export const handler = revocableApi('replace-students', (request) =>
  replaceRecord('students', studentInsertRequest(), request, recordWriter()),
);
