// PUT /api/enrollments/{enrollment_id}
import { recordRoute } from '../../shared/record-routes';
import { replaceRecord } from '../../shared/records/write-records';
import { enrollmentInsertRequest } from '../../shared/schemas/requests';
import { recordWriter } from '../../shared/wiring/record-writer';
import { revocableApi } from '../../shared/wiring/revocable-api';

export const handler = revocableApi(recordRoute('replace-enrollments'), (request) =>
  replaceRecord('enrollments', enrollmentInsertRequest(), request, recordWriter()),
);
