// POST /api/enrollments
import { createRecord } from '../../shared/records/write-records';
import { enrollmentInsertRequest } from '../../shared/schemas/requests';
import { idempotencyStore } from '../../shared/wiring/idempotency-store';
import { recordWriter } from '../../shared/wiring/record-writer';
import { revocableApi } from '../../shared/wiring/revocable-api';

export const handler = revocableApi('create-enrollments', (request) =>
  createRecord('enrollments', enrollmentInsertRequest(), request, recordWriter(), idempotencyStore()),
);
