// GET /api/teachers
import { api } from '../../shared/http/api';
import { listRecords } from '../../shared/records/read-records';

export const handler = api('list-teachers', (request) => listRecords('teachers', request));
