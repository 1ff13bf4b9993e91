// GET /api/results/deleted
import { listDeleted } from '../../shared/records/read-records';
import { api } from '../../shared/wiring/api';
import { recordRepository } from '../../shared/wiring/record-repository';

export const handler = api('list-deleted-results', (request) =>
  listDeleted('results', request, recordRepository()),
);
