// GET /api/staffs/{staff_id}
import { getRecord } from '../../shared/records/read-records';
import { api } from '../../shared/wiring/api';
import { recordRepository } from '../../shared/wiring/record-repository';

export const handler = api('get-staffs', (request) => getRecord('staffs', request, recordRepository()));
