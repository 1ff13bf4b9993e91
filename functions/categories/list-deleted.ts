// GET /api/categories/deleted
import { listDeleted } from '../../shared/records/read-records';
import { api } from '../../shared/wiring/api';
import { recordRepository } from '../../shared/wiring/record-repository';

export const handler = api('list-deleted-categories', (request) =>
  listDeleted('categories', request, recordRepository()),
);
