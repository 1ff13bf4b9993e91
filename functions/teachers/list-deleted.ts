// GET /api/teachers/deleted
import { api } from '../../shared/http/api';
import { listDeleted } from '../../shared/records/read-records';

export const handler = api('list-deleted-teachers', (request) => listDeleted('teachers', request));
