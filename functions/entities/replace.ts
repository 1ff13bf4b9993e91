// PUT /api/entities/{entity_id}
import { api } from '../../shared/http/api';
import { replaceRecord } from '../../shared/records/write-records';

export const handler = api('replace-entities', (request) => replaceRecord('entities', request));
