// POST /api/teachers
import { api } from '../../shared/http/api';
import { createRecord } from '../../shared/records/write-records';

export const handler = api('create-teachers', (request) => createRecord('teachers', request));
