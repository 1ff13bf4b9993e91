// A record about a student of a class (a result, an attendance mark, an assessment result) is made only
// for a student the class enrolls as one: the student's person lists an enrollment in the class with the
// role `student`. A whole day's attendance, or a result in an assessment of no class, names no class and
// is any student's. A record already made is replaced whatever the
// student's enrollment now, so a mark of a student who has since left can still be corrected.
import type { RecordRepository } from '../data/record-repository';
import { InvalidInputError } from '../domain/errors';
import { type GroupDescription, groups, type RecordGroup } from '../domain/groups';

/** Whether a group's records each name a student and the class they are about (`references` in groups.ts). */
export const aboutStudentOfClass = (group: RecordGroup): boolean => {
  const { references } = groups[group] as GroupDescription;
  const names = (field: string, named: RecordGroup) =>
    references.some((r) => r.field === field && r.group === named);
  return names('class_id', 'classes') && names('student_id', 'students');
};

/** Whether a person's enrollment list holds `classId` with the role `student`. */
export const enrollsAsStudent = (
  list: { entries: readonly { otherId: string; role: string }[] } | undefined,
  classId: string,
): boolean => list?.entries.some((entry) => entry.otherId === classId && entry.role === 'student') === true;

/**
 * Refuses (400) those of `studentIds` that `classId` does not enroll as students, naming each one's field
 * by its place (`name`); `entityOf` gives a student's person's entity id. Only their persons are read.
 */
export async function refuseStudentsNotInClass(
  records: RecordRepository,
  classId: string,
  studentIds: readonly string[],
  entityOf: ReadonlyMap<string, string>,
  name: (index: number) => string,
): Promise<void> {
  if (studentIds.length === 0) return;
  const entities = studentIds.flatMap((id) => entityOf.get(id) ?? []);
  const lists = await records.enrollmentLists('entities', [...new Set(entities)]);
  const enrolled = (studentId: string) => enrollsAsStudent(lists.get(entityOf.get(studentId) ?? ''), classId);
  const outside = studentIds.flatMap((id, index) =>
    enrolled(id)
      ? []
      : [
          {
            name: name(index),
            in: 'body' as const,
            reason: `student ${id} is not enrolled in class ${classId}`,
          },
        ],
  );
  // A class there is not is left to the write's own reference check, which names the class.
  if (outside.length > 0 && (await records.schoolsOfClasses([classId])).has(classId)) {
    throw new InvalidInputError(
      'A record about a student of a class is made only for its students.',
      outside,
    );
  }
}

/**
 * Refuses (400) a new record about a student of a class (`aboutStudentOfClass`) whose class does not enroll the
 * student as one. A student there is not is left to the write's own reference check, which says so.
 */
export async function refuseStudentNotInClass(
  group: RecordGroup,
  input: object,
  records: RecordRepository,
): Promise<void> {
  const { class_id: classId, student_id: studentId } = input as { class_id?: unknown; student_id?: unknown };
  if (!aboutStudentOfClass(group) || typeof classId !== 'string' || typeof studentId !== 'string') return;
  const entityOf = await records.entityIdsOf('students', [studentId]);
  if (!entityOf.has(studentId)) return;
  await refuseStudentsNotInClass(records, classId, [studentId], entityOf, () => 'student_id');
}
