// POST /api/entities
import { recordRoute } from '../../shared/record-routes';
import { createRecord } from '../../shared/records/write-records';
import { entityInsertRequest } from '../../shared/schemas/requests';
import { idempotencyStore } from '../../shared/wiring/idempotency-store';
import { recordWriter } from '../../shared/wiring/record-writer';
import { revocableApi } from '../../shared/wiring/revocable-api';

export const handler = revocableApi(recordRoute('create-entities'), (request) =>
  createRecord('entities', entityInsertRequest(), request, recordWriter(), idempotencyStore()),
);
