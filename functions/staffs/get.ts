// GET /api/staffs/{staff_id}
import { api } from '../../shared/http/api';
import { getRecord } from '../../shared/records/read-records';

export const handler = api('get-staffs', (request) => getRecord('staffs', request));
