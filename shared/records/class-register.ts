// A class's register for a date (`PUT /api/classes/{class_id}/attendance/{date}`, docs/api.md): each
// student's mark for the class and date, entered together (bulk-entry.ts).
import { isDate } from '../domain/dates';
import { InvalidInputError } from '../domain/errors';
import type { ApiRequest, ApiResponse } from '../exchange';
import { validateBody } from '../http/validate';
import { type RegisterRequest, registerRequest } from '../schemas/requests';
import { enterForStudents } from './bulk-entry';
import { notFound } from './missing-record';
import { recordId } from './record-id';
import type { RecordWriter } from './record-writer';

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
  const classId = recordId('classes', request);
  const date = registerDate(request);
  const { marks } = validateBody(registerRequest(), request.body, ['marks', 'student_id']) as RegisterRequest;
  // The class is the path's resource: one that is not there is 404, as for any record.
  if (!(await writer.records.schoolsOfClasses([classId])).has(classId)) throw notFound('classes', classId);
  const { records, audit } = await enterForStudents(request, writer, 'attendance', {
    field: 'marks',
    classId,
    inputs: marks.map((mark) => ({ class_id: classId, date, ...mark })),
  });
  return { body: { class_id: classId, date, attendance: records }, audit };
}
