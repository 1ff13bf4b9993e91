// PUT /api/students/{student_id}
import { replaceRecord } from '../../shared/records/write-records';
import { api } from '../../shared/wiring/api';
import { recordWriter } from '../../shared/wiring/record-writer';

export const handler = api('replace-students', (request) =>
  replaceRecord('students', request, recordWriter()),
);
