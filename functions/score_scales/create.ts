// POST /api/score_scales
import { recordRoute } from '../../shared/record-routes';
import { createRecord } from '../../shared/records/write-records';
import { scoreScaleInsertRequest } from '../../shared/schemas/requests';
import { idempotencyStore } from '../../shared/wiring/idempotency-store';
import { recordWriter } from '../../shared/wiring/record-writer';
import { revocableApi } from '../../shared/wiring/revocable-api';

export const handler = revocableApi(recordRoute('create-score_scales'), (request) =>
  createRecord('score_scales', scoreScaleInsertRequest(), request, recordWriter(), idempotencyStore()),
);
