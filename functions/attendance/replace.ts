// PUT /api/attendance/{attendance_id}
import { recordRoute } from '../../shared/record-routes';
import { replaceRecord } from '../../shared/records/write-records';
import { attendanceInsertRequest } from '../../shared/schemas/requests';
import { recordWriter } from '../../shared/wiring/record-writer';
import { revocableApi } from '../../shared/wiring/revocable-api';

export const handler = revocableApi(recordRoute('replace-attendance'), (request) =>
  replaceRecord('attendance', attendanceInsertRequest(), request, recordWriter()),
);
