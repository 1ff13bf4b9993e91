// GET /api/students/deleted
import { api } from '../../shared/http/api';
import { listDeleted } from '../../shared/records/read-records';

export const handler = api('list-deleted-students', (request) => listDeleted('students', request));
