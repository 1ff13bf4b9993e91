// POST /api/assessment_results
import { recordRoute } from '../../shared/record-routes';
import { refuseStudentNotInClass } from '../../shared/records/class-students';
import { createRecord } from '../../shared/records/write-records';
import { assessmentResultInsertRequest } from '../../shared/schemas/requests';
import { idempotencyStore } from '../../shared/wiring/idempotency-store';
import { recordWriter } from '../../shared/wiring/record-writer';
import { revocableApi } from '../../shared/wiring/revocable-api';

export const handler = revocableApi(recordRoute('create-assessment_results'), (request) =>
  createRecord(
    'assessment_results',
    assessmentResultInsertRequest(),
    request,
    recordWriter(),
    idempotencyStore(),
    refuseStudentNotInClass,
  ),
);
