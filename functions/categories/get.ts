// GET /api/categories/{category_id}
import { getRecord } from '../../shared/records/read-records';
import { api } from '../../shared/wiring/api';
import { recordRepository } from '../../shared/wiring/record-repository';

export const handler = api('get-categories', (request) =>
  getRecord('categories', request, recordRepository()),
);
