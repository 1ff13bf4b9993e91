// POST /api/students/{student_id}/documents
import { api } from '../../shared/http/api';
import { addDocument } from '../../shared/records/write-records';

export const handler = api('add-document-students', (request) => addDocument('students', request));
