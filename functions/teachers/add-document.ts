// POST /api/teachers/{teacher_id}/documents
import { addDocument } from '../../shared/records/write-records';
import { api } from '../../shared/wiring/api';
import { recordWriter } from '../../shared/wiring/record-writer';

export const handler = api('add-document-teachers', (request) =>
  addDocument('teachers', request, recordWriter()),
);
