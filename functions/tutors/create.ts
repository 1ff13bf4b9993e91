// POST /api/tutors
import { createRecord } from '../../shared/records/write-records';
import { api } from '../../shared/wiring/api';
import { recordWriter } from '../../shared/wiring/record-writer';

export const handler = api('create-tutors', (request) => createRecord('tutors', request, recordWriter()));
