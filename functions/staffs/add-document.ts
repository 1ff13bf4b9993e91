// POST /api/staffs/{staff_id}/documents
import { recordRoute } from '../../shared/record-routes';
import { addDocument } from '../../shared/records/write-records';
import { idempotencyStore } from '../../shared/wiring/idempotency-store';
import { recordWriter } from '../../shared/wiring/record-writer';
import { revocableApi } from '../../shared/wiring/revocable-api';

export const handler = revocableApi(recordRoute('add-document-staffs'), (request) =>
  addDocument('staffs', request, recordWriter(), idempotencyStore()),
);
