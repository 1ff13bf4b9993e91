// POST /api/entities/{entity_id}/documents
import { addDocument } from '../../shared/records/write-records';
import { api } from '../../shared/wiring/api';
import { recordWriter } from '../../shared/wiring/record-writer';

export const handler = api('add-document-entities', (request) =>
  addDocument('entities', request, recordWriter()),
);
