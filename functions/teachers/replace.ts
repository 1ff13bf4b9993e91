// PUT /api/teachers/{teacher_id}
import { replaceRecord } from '../../shared/records/write-records';
import { api } from '../../shared/wiring/api';
import { recordWriter } from '../../shared/wiring/record-writer';

export const handler = api('replace-teachers', (request) =>
  replaceRecord('teachers', request, recordWriter()),
);
