// GET /api/students/{student_id}/grades
import { recordRoute } from '../../shared/record-routes';
import { studentGrades } from '../../shared/records/student-grades';
import { api } from '../../shared/wiring/api';
import { recordRepository } from '../../shared/wiring/record-repository';

export const handler = api(recordRoute('get-student-grades'), (request) =>
  studentGrades(request, recordRepository()),
);
