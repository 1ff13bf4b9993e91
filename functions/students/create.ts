// POST /api/students
import { api } from '../../shared/http/api';
import { createRecord } from '../../shared/records/write-records';

export const handler = api('create-students', (request) => createRecord('students', request));
