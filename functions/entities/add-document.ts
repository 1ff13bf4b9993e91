// POST /api/entities/{entity_id}/documents
import { api } from '../../shared/http/api';
import { addDocument } from '../../shared/records/write-records';

export const handler = api('add-document-entities', (request) => addDocument('entities', request));
