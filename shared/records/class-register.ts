// A class's register for a date (`PUT /api/classes/{class_id}/attendance/{date}`, docs/api.md): each
// student's mark made, or replaced where the student already has a record for the class and date, in one
// transaction, so a register is written whole or not at all, and sent again it changes nothing but the
// records' times. Its audit event names every student it marks.
import { InvalidInputError } from '../domain/errors';
import type { ApiRequest, ApiResponse } from '../exchange';
import { validateBody } from '../http/validate';
import type { InsertRequest, RegisterRequest } from '../schemas/requests';
import { registerRequest } from '../schemas/requests';
import { notFound } from './missing-record';
import { refuseCreateOutOfReach } from './person-writes';
import { recordId } from './record-id';
import { readerView } from './record-view';
import type { RecordWriter } from './record-writer';
import { refuseCreateOutsideSchools } from './school-writes';

/** A day that exists, written `YYYY-MM-DD`. */
const isDate = (value: string) =>
  /^\d{4}-\d{2}-\d{2}$/.test(value) &&
  !Number.isNaN(Date.parse(value)) &&
  new Date(Date.parse(value)).toISOString().startsWith(value);

/** The register's date, from the path: anything but a day that exists gets 400. */
function registerDate({ path }: Pick<ApiRequest, 'path'>): string {
  const date = path.date ?? '';
  if (!isDate(date)) {
    throw new InvalidInputError('date must be a date that exists, written YYYY-MM-DD.', [
      { name: 'date', in: 'path', reason: 'not a date that exists' },
    ]);
  }
  return date;
}

export async function putRegister(request: ApiRequest, writer: RecordWriter): Promise<ApiResponse> {
  const { records } = writer;
  const classId = recordId('classes', request);
  const date = registerDate(request);
  const { marks } = validateBody(registerRequest(), request.body, ['marks', 'student_id']) as RegisterRequest;
  // The class is the path's resource: one that is not there is 404, as for any record.
  if (!(await records.schoolsOfClasses([classId])).has(classId)) throw notFound('classes', classId);
  await refuseCreateOutsideSchools({ ...request, body: { class_id: classId } }, 'attendance', records);
  await refuseCreateOutOfReach(request, 'attendance', { class_id: classId }, records);
  const studentIds = marks.map((mark) => mark.student_id);
  const students = await records.entityIdsOf('students', studentIds);
  const missing = marks.flatMap((mark, index) =>
    students.has(mark.student_id)
      ? []
      : [
          {
            name: `marks[${index}].student_id`,
            in: 'body' as const,
            reason: `no student has id ${mark.student_id}`,
          },
        ],
  );
  if (missing.length > 0) throw new InvalidInputError('Every mark must name a student.', missing);
  const inputs = marks.map((mark): InsertRequest<'attendance'> => ({ class_id: classId, date, ...mark }));
  const written = await writer.putByNaturalKey('attendance', inputs);
  const view = readerView(request.auth, 'attendance');
  return {
    body: { class_id: classId, date, attendance: written.map(({ record }) => view(record)) },
    audit: { recordIds: studentIds, entityIds: [...new Set(students.values())] },
  };
}
