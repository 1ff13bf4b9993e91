// POST /api/courses
import { recordRoute } from '../../shared/record-routes';
import { createRecord } from '../../shared/records/write-records';
import { courseInsertRequest } from '../../shared/schemas/requests';
import { idempotencyStore } from '../../shared/wiring/idempotency-store';
import { recordWriter } from '../../shared/wiring/record-writer';
import { revocableApi } from '../../shared/wiring/revocable-api';

export const handler = revocableApi(recordRoute('create-courses'), (request) =>
  createRecord('courses', courseInsertRequest(), request, recordWriter(), idempotencyStore()),
);
