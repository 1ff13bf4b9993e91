// GET /api/staffs/deleted
import { api } from '../../shared/http/api';
import { listDeleted } from '../../shared/records/read-records';

export const handler = api('list-deleted-staffs', (request) => listDeleted('staffs', request));
