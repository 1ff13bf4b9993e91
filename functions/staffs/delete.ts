// DELETE /api/staffs/{staff_id}
import { api } from '../../shared/http/api';
import { deleteRecord } from '../../shared/records/write-records';

export const handler = api('delete-staffs', (request) => deleteRecord('staffs', request));
