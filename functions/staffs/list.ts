// GET /api/staffs
import { listRecords } from '../../shared/records/read-records';
import { api } from '../../shared/wiring/api';
import { recordRepository } from '../../shared/wiring/record-repository';

export const handler = api('list-staffs', (request) => listRecords('staffs', request, recordRepository()));
