// GET /api/tutors/deleted
import { api } from '../../shared/http/api';
import { listDeleted } from '../../shared/records/read-records';

export const handler = api('list-deleted-tutors', (request) => listDeleted('tutors', request));
