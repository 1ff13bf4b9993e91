// A record about a student of a class (a result, an attendance mark, an assessment result) is made only
// for a student the class enrolls as one: the student's person lists an enrollment in the class with the
// role `student`. A whole day's attendance, or a result in an assessment of no class, names no class and
// is any student's. A record already made is replaced whatever the
// student's enrollment now, so a mark of a student who has since left can still be corrected.
import { classEntry, type EnrollmentEntry } from '../data/enrollment-entries';
import { keys } from '../data/keys';
import { internal } from '../data/record-items';
import type { RecordRepository } from '../data/record-repository';
import { InvalidInputError } from '../domain/errors';
import { aboutStudentOfClass, type RecordGroup } from '../domain/groups';
import { RETRY, type Step } from './write-transaction';

/** A person's enrollments in `classId` as a student. */
const studentEntriesIn = (
  list: { entries: readonly EnrollmentEntry[] } | undefined,
  classId: string,
): EnrollmentEntry[] =>
  list?.entries.filter((entry) => entry.otherId === classId && entry.role === 'student') ?? [];

/** Whether a person's enrollment list holds `classId` with the role `student`. */
export const enrollsAsStudent = (
  list: { entries: readonly EnrollmentEntry[] } | undefined,
  classId: string,
): boolean => studentEntriesIn(list, classId).length > 0;

const notInClass = (name: string, studentId: string, classId: string) => ({
  name,
  in: 'body' as const,
  reason: `student ${studentId} is not enrolled in class ${classId}`,
});

const refusal = (outside: ReturnType<typeof notInClass>[]) =>
  new InvalidInputError('A record about a student of a class is made only for its students.', outside);

/**
 * Refuses (400) those of `studentIds` that `classId` does not enroll as students, naming each one's field
 * by its place (`name`); `entityOf` gives a student's person's entity id. Only their persons are read,
 * and their enrollment lists are answered by entity id.
 */
export async function refuseStudentsNotInClass(
  records: RecordRepository,
  classId: string,
  studentIds: readonly string[],
  entityOf: ReadonlyMap<string, string>,
  name: (index: number) => string,
): Promise<ReadonlyMap<string, { entries: EnrollmentEntry[] }>> {
  if (studentIds.length === 0) return new Map();
  const entities = studentIds.flatMap((id) => entityOf.get(id) ?? []);
  const lists = await records.enrollmentLists('entities', [...new Set(entities)]);
  const enrolled = (studentId: string) => enrollsAsStudent(lists.get(entityOf.get(studentId) ?? ''), classId);
  const outside = studentIds.flatMap((id, index) =>
    enrolled(id) ? [] : [notInClass(name(index), id, classId)],
  );
  // A class there is not is left to the write's own reference check, which names the class.
  if (outside.length > 0 && (await records.schoolsOfClasses([classId])).has(classId)) throw refusal(outside);
  return lists;
}

/**
 * Refuses (400) a new record about a student of a class (`aboutStudentOfClass`) whose class does not enroll the
 * student as one. A student there is not is left to the write's own reference check, which says so.
 * Answers the condition the write must meet as it commits (classStillEnrolls): the class still lists one
 * of the enrollments found, so an enrollment deleted meanwhile refuses the record as the check would have.
 */
export async function refuseStudentNotInClass(
  group: RecordGroup,
  input: object,
  records: RecordRepository,
): Promise<Step[]> {
  const { class_id: classId, student_id: studentId } = input as { class_id?: unknown; student_id?: unknown };
  if (!aboutStudentOfClass(group) || typeof classId !== 'string' || typeof studentId !== 'string') return [];
  const entityOf = await records.entityIdsOf('students', [studentId]);
  const entityId = entityOf.get(studentId);
  if (entityId === undefined) return [];
  const lists = await refuseStudentsNotInClass(records, classId, [studentId], entityOf, () => 'student_id');
  return classStillEnrolls(records.tableName, classId, [{ studentId, entityId, name: 'student_id' }], lists);
}

/** A student whose new record is held to their enrollment (see classStillEnrolls). */
export interface HeldStudent {
  studentId: string;
  entityId: string;
  /** The field naming the student in the request, for the refusal. */
  name: string;
}

/**
 * The condition new records about students of a class meet as they commit (one created, or a bulk
 * entry's): the class still lists, for each of `students`, one of the enrollments as a student that
 * `lists` (refuseStudentsNotInClass's answer) found. It is on the class item, which the write's
 * transaction changes anyway (the count of records naming it), so it joins that action (withChecks)
 * rather than taking one a student. An enrollment deleted between the check and the write refuses the
 * write (400) as the check would have. None when no student is held.
 */
export function classStillEnrolls(
  tableName: string,
  classId: string,
  students: readonly HeldStudent[],
  lists: ReadonlyMap<string, { entries: readonly EnrollmentEntry[] }>,
): Step[] {
  const held = students.map((student) => ({
    ...student,
    entries: studentEntriesIn(lists.get(student.entityId), classId).map(({ enrollmentId }) =>
      classEntry({
        role: 'student',
        entity_id: student.entityId,
        class_id: classId,
        enrollment_id: enrollmentId,
      }),
    ),
  }));
  // A student found in no enrollment was refused by the check, or the class is not there, which the
  // write's reference check refuses: either way there is nothing to hold.
  if (held.length === 0 || held.some((student) => student.entries.length === 0)) return [];
  const values: Record<string, string> = {};
  const condition = held
    .map((student, s) => {
      const anyOf = student.entries.map((entry, e) => {
        values[`:held${s}_${e}`] = entry;
        return `contains(#heldEnrollments, :held${s}_${e})`;
      });
      return anyOf.length === 1 ? anyOf[0] : `(${anyOf.join(' OR ')})`;
    })
    .join(' AND ');
  return [
    {
      action: {
        ConditionCheck: {
          TableName: tableName,
          Key: keys.record('classes', classId),
          ConditionExpression: condition,
          ExpressionAttributeNames: { '#heldEnrollments': internal.enrollments },
          ExpressionAttributeValues: values,
        },
      },
      // Read from the class as it was: who of the students it no longer enrolls. A class that is gone is
      // the write's own to report.
      onConditionFailed: (current) => {
        if (current === undefined) return RETRY;
        const list = current[internal.enrollments];
        const listed = list instanceof Set ? (list as Set<string>) : new Set<string>();
        const gone = held.filter((student) => !student.entries.some((entry) => listed.has(entry)));
        return gone.length === 0
          ? RETRY
          : refusal(gone.map((student) => notInClass(student.name, student.studentId, classId)));
      },
    },
  ];
}
