// GET /api/academic_sessions/deleted
import { listDeleted } from '../../shared/records/read-records';
import { api } from '../../shared/wiring/api';
import { recordRepository } from '../../shared/wiring/record-repository';

export const handler = api('list-deleted-academic_sessions', (request) =>
  listDeleted('academic_sessions', request, recordRepository()),
);
