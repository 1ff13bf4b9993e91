// POST /api/results
import { recordRoute } from '../../shared/record-routes';
import { refuseStudentNotInClass } from '../../shared/records/class-students';
import { createRecord } from '../../shared/records/write-records';
import { resultInsertRequest } from '../../shared/schemas/requests';
import { idempotencyStore } from '../../shared/wiring/idempotency-store';
import { recordWriter } from '../../shared/wiring/record-writer';
import { revocableApi } from '../../shared/wiring/revocable-api';

export const handler = revocableApi(recordRoute('create-results'), (request) =>
  createRecord(
    'results',
    resultInsertRequest(),
    request,
    recordWriter(),
    idempotencyStore(),
    refuseStudentNotInClass,
  ),
);
