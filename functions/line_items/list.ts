// GET /api/line_items
import { listRecords } from '../../shared/records/read-records';
import { api } from '../../shared/wiring/api';
import { recordRepository } from '../../shared/wiring/record-repository';

export const handler = api('list-line_items', (request) =>
  listRecords('line_items', request, recordRepository()),
);
