// PUT /api/enrollments/{enrollment_id}
import { replaceRecord } from '../../shared/records/write-records';
import { enrollmentInsertRequest } from '../../shared/schemas/requests';
import { recordWriter } from '../../shared/wiring/record-writer';
import { revocableApi } from '../../shared/wiring/revocable-api';

export const handler = revocableApi('replace-enrollments', (request) =>
  replaceRecord('enrollments', enrollmentInsertRequest(), request, recordWriter()),
);
