// GET /api/students/{student_id}
import { api } from '../../shared/http/api';
import { getRecord } from '../../shared/records/read-records';

export const handler = api('get-students', (request) => getRecord('students', request));
