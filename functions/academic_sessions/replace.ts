// PUT /api/academic_sessions/{academic_session_id}
import { recordRoute } from '../../shared/record-routes';
import { replaceRecord } from '../../shared/records/write-records';
import { academicSessionInsertRequest } from '../../shared/schemas/requests';
import { recordWriter } from '../../shared/wiring/record-writer';
import { revocableApi } from '../../shared/wiring/revocable-api';

export const handler = revocableApi(recordRoute('replace-academic_sessions'), (request) =>
  replaceRecord('academic_sessions', academicSessionInsertRequest(), request, recordWriter()),
);
