// POST /api/students/{student_id}/documents
import { addDocument } from '../../shared/records/write-records';
import { api } from '../../shared/wiring/api';
import { recordWriter } from '../../shared/wiring/record-writer';

export const handler = api('add-document-students', (request) =>
  addDocument('students', request, recordWriter()),
);
