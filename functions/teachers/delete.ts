// DELETE /api/teachers/{teacher_id}
import { api } from '../../shared/http/api';
import { deleteRecord } from '../../shared/records/write-records';

export const handler = api('delete-teachers', (request) => deleteRecord('teachers', request));
