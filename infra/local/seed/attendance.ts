// The demo school group's daily attendance: four school weeks of whole-day registers (Monday 12 October
// to Friday 6 November 2026), one mark a student a day. Most days a student is present; about one day
// in ten they are absent (some excused) or late by five to twenty-five minutes. Deterministic: it draws
// from the tenant's generator.
import type { Attendance, Student } from '../../../shared/schemas/records';
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

/** A day's mark, drawn: mostly present. */
function mark(r: Random): Pick<Attendance, 'status' | 'minutes_late' | 'note'> {
  const draw = r.int(0, 99);
  if (draw < 90) return { status: 'present', minutes_late: null, note: '' };
  if (draw < 94) return { status: 'absent', minutes_late: null, note: '' };
  if (draw < 97)
    return { status: 'excused', minutes_late: null, note: 'Falta justificada pelo encarregado de educação.' };
  return { status: 'tardy', minutes_late: r.int(5, 25), note: '' };
}

/** Every student's whole-day mark on each school day of the four weeks. */
export function demoAttendance(
  r: Random,
  students: readonly Student[],
  stamp: () => { created_at: string; updated_at: string },
): Attendance[] {
  return demoSchoolDays.flatMap((date) =>
    students.map(
      (student): Attendance => ({
        attendance_id: r.uuid(),
        class_id: null,
        student_id: student.student_id,
        date,
        ...mark(r),
        ...stamp(),
      }),
    ),
  );
}
