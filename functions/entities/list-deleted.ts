// GET /api/entities/deleted
import { api } from '../../shared/http/api';
import { listDeleted } from '../../shared/records/read-records';

export const handler = api('list-deleted-entities', (request) => listDeleted('entities', request));
