// DELETE /api/students/{student_id}
import { deleteRecord } from '../../shared/records/write-records';
import { api } from '../../shared/wiring/api';
import { recordWriter } from '../../shared/wiring/record-writer';

export const handler = api('delete-students', (request) => deleteRecord('students', request, recordWriter()));
