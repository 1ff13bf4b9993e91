// GET /api/entities/{entity_id}
import { api } from '../../shared/http/api';
import { getRecord } from '../../shared/records/read-records';

export const handler = api('get-entities', (request) => getRecord('entities', request));
