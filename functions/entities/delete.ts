// DELETE /api/entities/{entity_id}
import { api } from '../../shared/http/api';
import { deleteRecord } from '../../shared/records/write-records';

export const handler = api('delete-entities', (request) => deleteRecord('entities', request));
