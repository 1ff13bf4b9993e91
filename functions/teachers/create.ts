// POST /api/teachers
import { createRecord } from '../../shared/records/write-records';
import { teacherInsertRequest } from '../../shared/schemas/requests';
import { idempotencyStore } from '../../shared/wiring/idempotency-store';
import { recordWriter } from '../../shared/wiring/record-writer';
import { revocableApi } from '../../shared/wiring/revocable-api';

export const handler = revocableApi('create-teachers', (request) =>
  createRecord('teachers', teacherInsertRequest(), request, recordWriter(), idempotencyStore()),
);
