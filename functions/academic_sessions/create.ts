// POST /api/academic_sessions
import { recordRoute } from '../../shared/record-routes';
import { createRecord } from '../../shared/records/write-records';
import { academicSessionInsertRequest } from '../../shared/schemas/requests';
import { idempotencyStore } from '../../shared/wiring/idempotency-store';
import { recordWriter } from '../../shared/wiring/record-writer';
import { revocableApi } from '../../shared/wiring/revocable-api';

export const handler = revocableApi(recordRoute('create-academic_sessions'), (request) =>
  createRecord(
    'academic_sessions',
    academicSessionInsertRequest(),
    request,
    recordWriter(),
    idempotencyStore(),
  ),
);
