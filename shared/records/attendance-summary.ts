// A student's attendance summary (`GET /api/students/{student_id}/attendance_summary`, docs/api.md):
// their marks and attendance rate per class, per term (the marks of the term's classes) and, for whole
// days, per month, from the tally the student keeps (shared/data/tallies.ts): the student's own item and
// their classes' terms, whatever the school's size. The reader sees what they
// read of the student's attendance: the student and their guardians all of it, a teacher the classes
// they teach (never whole days), a client registered with schools those schools' classes (no whole days).
import { canRead, classesTaught, idsOfRole } from '../auth/reach';
import { reachOf } from '../auth/roles';
import { entriesOf } from '../data/enrollment-entries';
import { internal, toRecord } from '../data/record-items';
import type { RecordRepository } from '../data/record-repository';
import { countsOf } from '../data/tallies';
import { attendanceStatuses } from '../domain/attendance';
import type { ApiRequest, ApiResponse } from '../exchange';
import { notFound } from './missing-record';
import { recordId } from './record-id';

type Marks = Record<(typeof attendanceStatuses)[number], number>;

/** Marks of each status, made by `count`. */
const marksOf = (count: (status: keyof Marks) => number) =>
  Object.fromEntries(attendanceStatuses.map((status) => [status, count(status)])) as Marks;

const noMarks = () => marksOf(() => 0);

/** Marks and their rate: the share of the marks not excused that are present or tardy, a percentage. */
function rated(marks: Marks) {
  const counted = marks.present + marks.tardy + marks.absent;
  const rate = counted === 0 ? null : Math.round(((marks.present + marks.tardy) / counted) * 1000) / 10;
  return { marks, rate };
}

const added = (a: Marks, b: Marks) => marksOf((status) => a[status] + b[status]);

/**
 * What of the student's attendance a person reads: all of it (their own, their children's, or everyone's),
 * or only the classes they teach.
 */
async function personReach(request: ApiRequest, studentId: string, records: RecordRepository) {
  const person = request.auth?.person;
  if (!person) return { all: true as const };
  const reaches = reachOf(person.roles, 'attendance');
  if (reaches.includes('all')) return { all: true as const };
  const item = await records.getItem('entities', person.entityId);
  if (!item) return { all: false as const, classIds: [] };
  const entity = toRecord('entities', item);
  if (reaches.includes('own') && idsOfRole(entity, 'student').includes(studentId))
    return { all: true as const };
  if (reaches.includes('in-care')) {
    const tutors = await records.getMany('tutors', idsOfRole(entity, 'tutor'));
    if ([...tutors.values()].some((t) => t.student_ids.includes(studentId))) return { all: true as const };
  }
  return {
    all: false as const,
    classIds: reaches.includes('taught') ? classesTaught(entriesOf(item[internal.enrollments])) : [],
  };
}

export async function attendanceSummary(
  request: ApiRequest,
  records: RecordRepository,
): Promise<ApiResponse> {
  const studentId = recordId('students', request);
  // A student the reader may not read is not there for them, as on a get.
  if (!(await canRead(request.auth, 'students', studentId, records))) throw notFound('students', studentId);
  // The student keeps their attendance's tally.
  const stored = await records.getItem('students', studentId);
  if (!stored) throw notFound('students', studentId);
  const reach = await personReach(request, studentId, records);
  /** Each class's or month's marks, from the tally's counts `<class_id or month>#<status>`. */
  const marksBy = (kind: 'class' | 'day') => {
    const by = new Map<string, Marks>();
    for (const [key, count] of countsOf(stored, kind)) {
      const at = key.lastIndexOf('#');
      const status = key.slice(at + 1) as keyof Marks;
      const marks = by.get(key.slice(0, at)) ?? noMarks();
      if (status in marks) marks[status] = count;
      by.set(key.slice(0, at), marks);
    }
    return new Map([...by].sort(([a], [b]) => a.localeCompare(b)));
  };
  const byClass = marksBy('class');
  const byMonth = marksBy('day');
  // A school-scoped client reads its schools' classes.
  const schools = request.auth?.schools;
  const schoolOf = schools ? await records.schoolsOfClasses([...byClass.keys()]) : undefined;
  const shown = [...byClass.keys()].filter(
    (classId) =>
      (reach.all || reach.classIds.includes(classId)) &&
      (!schools || schools.includes(schoolOf?.get(classId) ?? '')),
  );
  const classes = await records.getMany('classes', shown);
  const terms = new Map<string, Marks>();
  for (const classId of shown) {
    for (const termId of classes.get(classId)?.term_ids ?? []) {
      terms.set(termId, added(terms.get(termId) ?? noMarks(), byClass.get(classId) as Marks));
    }
  }
  return {
    body: {
      student_id: studentId,
      classes: shown.map((classId) => ({
        class_id: classId,
        term_ids: classes.get(classId)?.term_ids ?? [],
        ...rated(byClass.get(classId) as Marks),
      })),
      terms: [...terms]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([term_id, marks]) => ({ term_id, ...rated(marks) })),
      // A whole day names no class, so no school holds it (school-scope.ts): a school-scoped client reads none.
      days: reach.all && !schools ? [...byMonth].map(([month, marks]) => ({ month, ...rated(marks) })) : [],
    },
    audit: { recordIds: [studentId], entityIds: [String(stored.entity_id)] },
  };
}
