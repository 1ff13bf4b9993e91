// GET /api/staffs
import { api } from '../../shared/http/api';
import { listRecords } from '../../shared/records/read-records';

export const handler = api('list-staffs', (request) => listRecords('staffs', request));
