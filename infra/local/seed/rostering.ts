// The demo tenant's school group: the district (the agrupamento) with its three schools, the 2026/27
// school year and its three terms, each of two grading periods, the Portuguese curriculum as courses per grade, and per school one
// class of each course and a homeroom per grade, all year long, each with a teacher; every student is
// enrolled in their grade's classes (6 to 10). Deterministic: it draws from the tenant's generator.
import type {
  AcademicSession,
  Class,
  Course,
  Enrollment,
  Entity,
  Student,
  Teacher,
} from '../../../shared/schemas/records';
import type { Random } from './random';
import { curriculum, schools, terms } from './vocabulary';

export interface Roster {
  /** The schools, as organisation entities under the district. */
  schools: Entity[];
  sessions: AcademicSession[];
  courses: Course[];
  classes: Class[];
  enrollments: Enrollment[];
}

/** The school year as OneRoster names it: by the year it ends. */
const SCHOOL_YEAR = '2027';
const YEAR_START = '2026-09-14';
const YEAR_END = '2027-06-30';

/** A student's grade in 2026/27 from the year they were born: six-year-olds start the 1.º ano. */
export const gradeOf = (birthDate: string) =>
  Math.min(12, Math.max(1, 2026 - Number(birthDate.slice(0, 4)) - 5));

/** The day after `date` (YYYY-MM-DD), and the day halfway from `start` to `end`. */
const dayAfter = (date: string) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
const midway = (start: string, end: string) => {
  const [from, to] = [start, end].map((d) => Date.parse(`${d}T00:00:00Z`) / 86_400_000) as [number, number];
  return new Date(Math.floor((from + to) / 2) * 86_400_000).toISOString().slice(0, 10);
};

/** A term's two grading periods (the mid-term and the end-of-term assessment), split at its middle day. */
function gradingPeriods(
  r: Random,
  term: AcademicSession,
  stamp: () => { created_at: string; updated_at: string },
): AcademicSession[] {
  const middle = midway(term.start_date, term.end_date);
  const halves = [
    { title: `${term.title}, avaliação intercalar`, start: term.start_date, end: middle },
    { title: `${term.title}, avaliação final`, start: dayAfter(middle), end: term.end_date },
  ];
  return halves.map((half) => ({
    academic_session_id: r.uuid(),
    title: half.title,
    type: 'grading_period',
    start_date: half.start,
    end_date: half.end,
    parent_id: term.academic_session_id,
    school_year: term.school_year,
    ...stamp(),
  }));
}

/** Grades as OneRoster writes them: two digits. */
const gradeCode = (grade: number) => String(grade).padStart(2, '0');

export function demoRoster(
  r: Random,
  district: Entity,
  students: readonly Student[],
  teachers: readonly Teacher[],
  organisation: (name: string, domain: string) => Entity,
  stamp: () => { created_at: string; updated_at: string },
): Roster {
  const schoolEntities = schools.map((school) => ({
    ...organisation(school.name, school.domain),
    org_type: 'school' as const,
    parent_id: district.entity_id,
  }));
  const schoolOf = (grade: number) => {
    const index = schools.findIndex((s) => grade >= s.grades[0] && grade <= s.grades[1]);
    return schoolEntities[index] as Entity;
  };

  const year: AcademicSession = {
    academic_session_id: r.uuid(),
    title: 'Ano letivo 2026/27',
    type: 'school_year',
    start_date: YEAR_START,
    end_date: YEAR_END,
    parent_id: null,
    school_year: SCHOOL_YEAR,
    ...stamp(),
  };
  const termSessions: AcademicSession[] = terms.map((term) => ({
    academic_session_id: r.uuid(),
    title: term.title,
    type: 'term',
    start_date: term.start,
    end_date: term.end,
    parent_id: year.academic_session_id,
    school_year: SCHOOL_YEAR,
    ...stamp(),
  }));
  const termIds = termSessions.map((t) => t.academic_session_id);

  const courses: Course[] = [];
  const classes: Class[] = [];
  const enrollments: Enrollment[] = [];
  const byGrade = new Map<number, Student[]>();
  for (const student of students) {
    const grade = gradeOf(student.birth_date);
    byGrade.set(grade, [...(byGrade.get(grade) ?? []), student]);
  }
  const enroll = (klass: Class, entityId: string, role: Enrollment['role'], primary: boolean) => {
    enrollments.push({
      enrollment_id: r.uuid(),
      class_id: klass.class_id,
      entity_id: entityId,
      role,
      primary,
      begin_date: YEAR_START,
      end_date: null,
      ...stamp(),
    });
  };
  // Teachers take the classes in turn, so each teaches a few and every class has one.
  let nextTeacher = 0;
  const teacherOf = () => teachers[nextTeacher++ % teachers.length] as Teacher;

  for (let grade = 1; grade <= 12; grade++) {
    const school = schoolOf(grade);
    const code = gradeCode(grade);
    const pupils = byGrade.get(grade) ?? [];
    const course = (name: string, subjectCode: string): Course => {
      const made: Course = {
        course_id: r.uuid(),
        title: `${name} ${grade}.º ano`,
        course_code: `${subjectCode}-${code}`,
        grades: [code],
        subjects: [name],
        org_id: school.entity_id,
        ...stamp(),
      };
      courses.push(made);
      return made;
    };
    const homeroom: Class = {
      class_id: r.uuid(),
      title: `Turma ${grade}.º A`,
      class_code: `${code}A`,
      class_type: 'homeroom',
      course_id: course('Direção de Turma', 'DT').course_id,
      school_id: school.entity_id,
      term_ids: termIds,
      periods: [],
      location: `Sala ${grade}${r.int(1, 9)}`,
      ...stamp(),
    };
    const gradeClasses: Class[] = [];
    for (const subject of curriculum(grade)) {
      gradeClasses.push({
        class_id: r.uuid(),
        title: `${subject.name} ${grade}.º A`,
        class_code: `${subject.code}-${code}A`,
        class_type: 'scheduled',
        course_id: course(subject.name, subject.code).course_id,
        school_id: school.entity_id,
        term_ids: termIds,
        periods: [String(r.int(1, 4)), String(r.int(5, 8))],
        location: subject.room ?? `Sala ${grade}${r.int(1, 9)}`,
        ...stamp(),
      });
    }
    for (const klass of [homeroom, ...gradeClasses]) {
      classes.push(klass);
      enroll(klass, teacherOf().entity_id, 'teacher', true);
      for (const pupil of pupils) enroll(klass, pupil.entity_id, 'student', false);
    }
  }

  // Drawn last, so every id drawn before them is the same as in a tenant seeded without them.
  const periods = termSessions.flatMap((term) => gradingPeriods(r, term, stamp));
  return {
    schools: schoolEntities,
    sessions: [year, ...termSessions, ...periods],
    courses,
    classes,
    enrollments,
  };
}
