// POST /api/assessment_line_items
import { recordRoute } from '../../shared/record-routes';
import { createRecord } from '../../shared/records/write-records';
import { assessmentLineItemInsertRequest } from '../../shared/schemas/requests';
import { idempotencyStore } from '../../shared/wiring/idempotency-store';
import { recordWriter } from '../../shared/wiring/record-writer';
import { revocableApi } from '../../shared/wiring/revocable-api';

export const handler = revocableApi(recordRoute('create-assessment_line_items'), (request) =>
  createRecord(
    'assessment_line_items',
    assessmentLineItemInsertRequest(),
    request,
    recordWriter(),
    idempotencyStore(),
  ),
);
