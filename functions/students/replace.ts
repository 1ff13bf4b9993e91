// PUT /api/students/{student_id}
import { api } from '../../shared/http/api';
import { replaceRecord } from '../../shared/records/write-records';

export const handler = api('replace-students', (request) => replaceRecord('students', request));
