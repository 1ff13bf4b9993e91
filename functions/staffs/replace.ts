// PUT /api/staffs/{staff_id}
import { api } from '../../shared/http/api';
import { replaceRecord } from '../../shared/records/write-records';

export const handler = api('replace-staffs', (request) => replaceRecord('staffs', request));
