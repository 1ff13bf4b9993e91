// What a teacher enters for a class's students at once (docs/api.md): a class's register for a date,
// a line item's results. Each record is made, or replaced where the student already has one (its natural
// key's claim names it), all in one transaction, so an entry is written whole or not at all, and sent
// again it leaves the same records. Its audit event names every student it names.

import type { StudentWork } from '../data/listings';
import { naturalKeyOf } from '../data/record-links';
import { InvalidInputError } from '../domain/errors';
import type { ApiRequest } from '../exchange';
import type { AuditSubject } from '../http/subject';
import type { GroupRecords } from '../schemas/records';
import type { InsertRequest } from '../schemas/requests';
import { classStillEnrolls, refuseStudentsNotInClass } from './class-students';
import { refuseCreateOutOfReach } from './person-writes';
import { readerView } from './record-view';
import type { RecordWriter } from './record-writer';
import { refuseCreateOutsideSchools, refuseStudentsOutsideSchools } from './school-writes';

/**
 * Writes one record per student of the class (`inputs`, in the order of `entries` in the body) in one
 * transaction, once the caller may write in the class and every student exists; answers the records as
 * written, in the caller's view, and the audit subject naming the students.
 */
export async function enterForStudents<G extends StudentWork>(
  request: ApiRequest,
  writer: RecordWriter,
  group: G,
  entries: { field: string; classId: string; inputs: readonly InsertRequest<G>[] },
): Promise<{ records: GroupRecords[G][]; audit: AuditSubject }> {
  const { records } = writer;
  const { field, classId, inputs } = entries;
  /** Where the body names the student of its entry at `index`, as each refusal names it. */
  const name = (index: number) => `${field}[${index}].student_id`;
  await refuseCreateOutsideSchools(request, group, { class_id: classId }, records);
  await refuseCreateOutOfReach(request, group, { class_id: classId }, records);
  const studentIds = inputs.map((input) => (input as { student_id: string }).student_id);
  const students = await records.entityIdsOf('students', studentIds);
  const missing = studentIds.flatMap((id, index) =>
    students.has(id) ? [] : [{ name: name(index), in: 'body' as const, reason: `no student has id ${id}` }],
  );
  if (missing.length > 0)
    throw new InvalidInputError(`Every entry of ${field} must name a student.`, missing);
  await refuseStudentsOutsideSchools(request, records, studentIds, name);
  // A student's record already made is replaced whatever their enrollment now: only new ones are checked.
  const holders = await records.naturalKeyHolders(
    group,
    inputs.map((input) => naturalKeyOf(group, input) as string),
  );
  const fresh = studentIds.flatMap((id, index) =>
    holders.has(naturalKeyOf(group, inputs[index]) as string) ? [] : [{ id, index }],
  );
  const lists = await refuseStudentsNotInClass(
    records,
    classId,
    fresh.map((f) => f.id),
    students,
    (i) => name(fresh[i]?.index ?? i),
  );
  // Held as the entry commits: an enrollment ended meanwhile refuses the entry as the check would have.
  const held = fresh.map(({ id, index }) => ({
    studentId: id,
    entityId: students.get(id) as string,
    name: name(index),
  }));
  const written = await writer.putByNaturalKey(
    group,
    inputs,
    classStillEnrolls(records.tableName, classId, held, lists),
  );
  const view = readerView(request.auth, group);
  return {
    records: written.map(({ record }) => view(record) as GroupRecords[G]),
    audit: { recordIds: studentIds, entityIds: [...new Set(students.values())] },
  };
}
