// DELETE /api/attendance/{attendance_id}
import { recordRoute } from '../../shared/record-routes';
import { deleteRecord } from '../../shared/records/write-records';
import { recordWriter } from '../../shared/wiring/record-writer';
import { revocableApi } from '../../shared/wiring/revocable-api';

export const handler = revocableApi(recordRoute('delete-attendance'), (request) =>
  deleteRecord('attendance', request, recordWriter()),
);
