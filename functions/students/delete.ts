// DELETE /api/students/{student_id}
import { api } from '../../shared/http/api';
import { deleteRecord } from '../../shared/records/write-records';

export const handler = api('delete-students', (request) => deleteRecord('students', request));
