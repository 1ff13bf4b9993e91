// GET /api/entities
import { api } from '../../shared/http/api';
import { listRecords } from '../../shared/records/read-records';

export const handler = api('list-entities', (request) => listRecords('entities', request));
