// POST /api/categories
import { recordRoute } from '../../shared/record-routes';
import { createRecord } from '../../shared/records/write-records';
import { categoryInsertRequest } from '../../shared/schemas/requests';
import { idempotencyStore } from '../../shared/wiring/idempotency-store';
import { recordWriter } from '../../shared/wiring/record-writer';
import { revocableApi } from '../../shared/wiring/revocable-api';

export const handler = revocableApi(recordRoute('create-categories'), (request) =>
  createRecord('categories', categoryInsertRequest(), request, recordWriter(), idempotencyStore()),
);
