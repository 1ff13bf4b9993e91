// POST /api/score_scales
import { createRecord } from '../../shared/records/write-records';
import { idempotencyStore } from '../../shared/wiring/idempotency-store';
import { recordWriter } from '../../shared/wiring/record-writer';
import { revocableApi } from '../../shared/wiring/revocable-api';

export const handler = revocableApi('create-score_scales', (request) =>
  createRecord('score_scales', request, recordWriter(), idempotencyStore()),
);
