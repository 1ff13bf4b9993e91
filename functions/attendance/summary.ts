// GET /api/students/{student_id}/attendance_summary
import { recordRoute } from '../../shared/record-routes';
import { attendanceSummary } from '../../shared/records/attendance-summary';
import { api } from '../../shared/wiring/api';
import { recordRepository } from '../../shared/wiring/record-repository';

export const handler = api(recordRoute('get-student-attendance-summary'), (request) =>
  attendanceSummary(request, recordRepository()),
);
