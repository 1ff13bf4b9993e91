// DELETE /api/academic_sessions/{academic_session_id}
import { recordRoute } from '../../shared/record-routes';
import { deleteRecord } from '../../shared/records/write-records';
import { recordWriter } from '../../shared/wiring/record-writer';
import { revocableApi } from '../../shared/wiring/revocable-api';

export const handler = revocableApi(recordRoute('delete-academic_sessions'), (request) =>
  deleteRecord('academic_sessions', request, recordWriter()),
);
