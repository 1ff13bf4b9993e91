// GET /api/students
import { api } from '../../shared/http/api';
import { listRecords } from '../../shared/records/read-records';

export const handler = api('list-students', (request) => listRecords('students', request));
