// GET /api/academic_sessions
import { listRecords } from '../../shared/records/read-records';
import { api } from '../../shared/wiring/api';
import { recordRepository } from '../../shared/wiring/record-repository';

export const handler = api('list-academic_sessions', (request) =>
  listRecords('academic_sessions', request, recordRepository()),
);
