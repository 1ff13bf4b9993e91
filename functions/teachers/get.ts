// GET /api/teachers/{teacher_id}
import { api } from '../../shared/http/api';
import { getRecord } from '../../shared/records/read-records';

export const handler = api('get-teachers', (request) => getRecord('teachers', request));
