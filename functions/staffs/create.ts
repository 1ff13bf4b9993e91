// POST /api/staffs
import { api } from '../../shared/http/api';
import { createRecord } from '../../shared/records/write-records';

export const handler = api('create-staffs', (request) => createRecord('staffs', request));
