// POST /api/tutors/{tutor_id}/documents
import { api } from '../../shared/http/api';
import { addDocument } from '../../shared/records/write-records';

export const handler = api('add-document-tutors', (request) => addDocument('tutors', request));
