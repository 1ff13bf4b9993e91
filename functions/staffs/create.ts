// POST /api/staffs
import { createRecord } from '../../shared/records/write-records';
import { api } from '../../shared/wiring/api';
import { recordWriter } from '../../shared/wiring/record-writer';

export const handler = api('create-staffs', (request) => createRecord('staffs', request, recordWriter()));
