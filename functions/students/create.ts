// POST /api/students
import { recordRoute } from '../../shared/record-routes';
import { createRecord } from '../../shared/records/write-records';
import { studentInsertRequest } from '../../shared/schemas/requests';
import { idempotencyStore } from '../../shared/wiring/idempotency-store';
import { recordWriter } from '../../shared/wiring/record-writer';
import { revocableApi } from '../../shared/wiring/revocable-api';

export const handler = revocableApi(recordRoute('create-students'), (request) =>
  createRecord('students', studentInsertRequest(), request, recordWriter(), idempotencyStore()),
);
