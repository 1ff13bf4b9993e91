// The demo school group's attendance: the registers the demo teacher took in four school weeks (Monday
// 12 October to Friday 6 November 2026). Each of their classes meets twice a week, and each lesson's
// register marks every student of the class. Most marks are present; about one in ten is absent (some
// excused) or late by five to twenty-five minutes. Only the demo teacher's classes have registers, so the
// seed stays small: every test file seeds its own tenant. Deterministic: it draws from the tenant's
// generator.
import type { Attendance, Class, Enrollment, Entity, Student } from '../../../shared/schemas/records';
import { demoTeacher } from './demo-users';
import type { Random } from './random';

const FIRST_DAY = Date.UTC(2026, 9, 12);
const WEEKS = 4;
const DAY_MS = 24 * 60 * 60 * 1000;

/** The school days of the four weeks: Monday to Friday. */
export const demoSchoolDays: readonly string[] = Array.from(
  { length: WEEKS * 7 },
  (_, i) => FIRST_DAY + i * DAY_MS,
)
  .filter((time) => new Date(time).getUTCDay() % 6 !== 0)
  .map((time) => new Date(time).toISOString().slice(0, 10));

/** The days a class meets: two weekdays, two apart, by its place among the teacher's classes. */
const lessonDays = (place: number) =>
  demoSchoolDays.filter((day) => {
    const weekday = new Date(day).getUTCDay() - 1;
    return weekday === place % 5 || weekday === (place + 2) % 5;
  });

/** A lesson's mark, drawn: mostly present. */
function mark(r: Random): Pick<Attendance, 'status' | 'minutes_late' | 'note'> {
  const draw = r.int(0, 99);
  if (draw < 90) return { status: 'present', minutes_late: null, note: '' };
  if (draw < 94) return { status: 'absent', minutes_late: null, note: '' };
  if (draw < 97) {
    return { status: 'excused', minutes_late: null, note: 'Falta justificada pelo encarregado de educação.' };
  }
  return { status: 'tardy', minutes_late: r.int(5, 25), note: '' };
}

/** What the registers are drawn for: the tenant's people, classes and enrollments. */
export interface RegisteredRoster {
  entities: readonly Entity[];
  classes: readonly Class[];
  enrollments: readonly Enrollment[];
  students: readonly Student[];
}

/** The demo teacher's registers: each of their classes' lessons, every student of the class marked. */
export function demoAttendance(
  r: Random,
  { entities, classes, enrollments, students }: RegisteredRoster,
  stamp: () => { created_at: string; updated_at: string },
): Attendance[] {
  const teacher = demoTeacher(entities);
  const studentOf = new Map(students.map((student) => [student.entity_id, student.student_id]));
  const taught = classes.filter((cls) =>
    enrollments.some(
      (e) => e.class_id === cls.class_id && e.entity_id === teacher?.entity_id && e.role === 'teacher',
    ),
  );
  return taught.flatMap((cls, place) => {
    const pupils = enrollments.flatMap((e) =>
      e.class_id === cls.class_id && e.role === 'student' ? [studentOf.get(e.entity_id) as string] : [],
    );
    return lessonDays(place).flatMap((date) =>
      pupils.map(
        (studentId): Attendance => ({
          attendance_id: r.uuid(),
          class_id: cls.class_id,
          student_id: studentId,
          date,
          ...mark(r),
          ...stamp(),
        }),
      ),
    );
  });
}
