// GET /api/courses
import { listRecords } from '../../shared/records/read-records';
import { api } from '../../shared/wiring/api';
import { recordRepository } from '../../shared/wiring/record-repository';

export const handler = api('list-courses', (request) => listRecords('courses', request, recordRepository()));
