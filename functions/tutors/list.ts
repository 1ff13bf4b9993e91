// GET /api/tutors
import { api } from '../../shared/http/api';
import { listRecords } from '../../shared/records/read-records';

export const handler = api('list-tutors', (request) => listRecords('tutors', request));
