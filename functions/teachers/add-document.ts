// POST /api/teachers/{teacher_id}/documents
import { api } from '../../shared/http/api';
import { addDocument } from '../../shared/records/write-records';

export const handler = api('add-document-teachers', (request) => addDocument('teachers', request));
