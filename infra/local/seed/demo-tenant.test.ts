import { describe, expect, it } from 'vitest';
import { isValidCitizenCard, isValidIban } from '../../../shared/domain/identifiers';
import { recordSchemas } from '../../../shared/schemas/records';
import { demoTenant } from './demo-tenant';
import { gradeOf } from './rostering';

const records = demoTenant();
const of = (group: string) =>
  records.filter((r) => r.group === group).map((r) => r.record as Record<string, unknown>);

describe('the demo tenant (contract section 1)', () => {
  it('has at least the contracted number of records in each group', () => {
    expect(of('students').length).toBeGreaterThanOrEqual(120);
    expect(of('teachers').length).toBeGreaterThanOrEqual(25);
    expect(of('tutors').length).toBeGreaterThanOrEqual(60);
    expect(of('staffs').length).toBeGreaterThanOrEqual(15);
    expect(of('entities').filter((e) => e.entity_type === 'organisation').length).toBeGreaterThan(0);
  });

  it('is the same on every run', () => {
    expect(demoTenant()).toEqual(records);
  });

  it('matches the record schemas, with every list filled in for students and teachers', () => {
    for (const { group, record } of records) {
      expect(recordSchemas[group].safeParse(record).error).toBeUndefined();
    }
    for (const person of [...of('students'), ...of('teachers')]) {
      for (const list of ['addresses', 'contacts', 'documents', 'bankAccounts']) {
        expect((person[list] as unknown[]).length).toBeGreaterThan(0);
      }
    }
  });

  it('has valid IBANs and citizen card numbers, unique ids, and both empty and real photos', () => {
    const people = [...of('students'), ...of('teachers'), ...of('tutors'), ...of('staffs')];
    for (const p of people) {
      for (const account of p.bankAccounts as { back_account_number: string }[]) {
        expect(isValidIban(account.back_account_number)).toBe(true);
      }
      for (const doc of p.documents as {
        identification_document_type_name: string;
        identification_document_value: string;
      }[]) {
        if (doc.identification_document_type_name === 'NationalID') {
          expect(isValidCitizenCard(doc.identification_document_value)).toBe(true);
        }
      }
    }
    const photos = people.map((p) => p.photobase64 as string);
    expect(photos.filter((p) => p === '').length).toBeGreaterThan(10);
    expect(photos.filter((p) => p.startsWith('iVBORw0KGgo')).length).toBeGreaterThan(10);
    const ids = records.map(({ group, record }) => `${group}:${JSON.stringify(record).slice(0, 60)}`);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('links every role to its entity and every tutor to existing students', () => {
    const entities = new Map(of('entities').map((e) => [e.entity_id, e]));
    const studentIds = new Set(of('students').map((s) => s.student_id));
    for (const group of ['students', 'teachers', 'tutors', 'staffs'] as const) {
      for (const record of of(group)) {
        const entity = entities.get(record.entity_id) as { roles: { id: string }[] } | undefined;
        expect(entity?.roles.map((role) => role.id)).toContain(record[`${group.slice(0, -1)}_id`]);
      }
    }
    for (const tutor of of('tutors')) {
      for (const id of tutor.student_ids as string[]) expect(studentIds.has(id)).toBe(true);
    }
    const teacherTutors = of('entities').filter((e) => {
      const roles = (e.roles as { role: string }[]).map((role) => role.role);
      return roles.includes('teacher') && roles.includes('tutor');
    });
    expect(teacherTutors.length).toBeGreaterThan(0);
  });
});

describe('the demo school group (issue "Rostering", deliverable 5)', () => {
  const entities = of('entities');
  const byId = new Map(entities.map((e) => [e.entity_id, e]));

  it('is a district with its schools, each school under the district', () => {
    const districts = entities.filter((e) => e.org_type === 'district');
    expect(districts).toHaveLength(1);
    const schools = entities.filter((e) => e.org_type === 'school');
    expect(schools.length).toBeGreaterThanOrEqual(3);
    for (const school of schools) expect(school.parent_id).toBe(districts[0]?.entity_id);
  });

  it('has the 2026/27 school year with its terms inside it, and two grading periods in each term', () => {
    const sessions = of('academic_sessions');
    const [year] = sessions;
    expect(year).toMatchObject({ type: 'school_year', school_year: '2027', parent_id: null });
    const terms = sessions.filter((s) => s.type === 'term');
    expect(terms.length).toBeGreaterThanOrEqual(3);
    for (const term of terms) {
      expect(term).toMatchObject({ parent_id: year?.academic_session_id });
      expect((term.start_date as string) >= (year?.start_date as string)).toBe(true);
      expect((term.end_date as string) <= (year?.end_date as string)).toBe(true);
      const periods = sessions.filter((s) => s.parent_id === term.academic_session_id);
      expect(periods.map((p) => p.type)).toEqual(['grading_period', 'grading_period']);
      // They cover the term, one after the other.
      expect(periods[0]?.start_date).toBe(term.start_date);
      expect(periods[1]?.end_date).toBe(term.end_date);
      expect((periods[0]?.end_date as string) < (periods[1]?.start_date as string)).toBe(true);
    }
    expect(sessions).toHaveLength(1 + terms.length * 3);
  });

  it('has a Portuguese curriculum: courses per grade, offered by the school that teaches it', () => {
    const courses = of('courses');
    const grades = new Set(courses.flatMap((c) => c.grades as string[]));
    expect([...grades].sort()).toEqual(Array.from({ length: 12 }, (_, i) => String(i + 1).padStart(2, '0')));
    expect(courses.map((c) => c.title)).toContain('Matemática 7.º ano');
    for (const course of courses) expect(byId.get(course.org_id)?.org_type).toBe('school');
  });

  it('has classes per school and term, every class with a teacher, every student in 6 to 10', () => {
    const classes = of('classes');
    const termIds = new Set(
      of('academic_sessions')
        .filter((s) => s.type === 'term')
        .map((s) => s.academic_session_id),
    );
    const courseIds = new Set(of('courses').map((c) => c.course_id));
    for (const klass of classes) {
      expect(courseIds.has(klass.course_id)).toBe(true);
      expect(byId.get(klass.school_id)?.org_type).toBe('school');
      for (const term of klass.term_ids as string[]) expect(termIds.has(term)).toBe(true);
    }
    const enrollments = of('enrollments');
    const teachersOf = new Map<unknown, number>();
    const classesOf = new Map<unknown, number>();
    for (const e of enrollments) {
      expect(byId.get(e.entity_id)?.entity_type).toBe('person');
      if (e.role === 'teacher') teachersOf.set(e.class_id, (teachersOf.get(e.class_id) ?? 0) + 1);
      if (e.role === 'student') classesOf.set(e.entity_id, (classesOf.get(e.entity_id) ?? 0) + 1);
    }
    for (const klass of classes) expect(teachersOf.get(klass.class_id), String(klass.title)).toBe(1);
    for (const student of of('students')) {
      const count = classesOf.get(student.entity_id) ?? 0;
      expect(count).toBeGreaterThanOrEqual(6);
      expect(count).toBeLessThanOrEqual(10);
    }
  });

  it("enrolls each student in their own grade's classes at their grade's school", () => {
    const classes = new Map(of('classes').map((c) => [c.class_id, c]));
    const courses = new Map(of('courses').map((c) => [c.course_id, c]));
    const students = new Map(of('students').map((s) => [s.entity_id, s]));
    for (const e of of('enrollments').filter((e) => e.role === 'student')) {
      const course = courses.get(classes.get(e.class_id)?.course_id);
      const grade = gradeOf(students.get(e.entity_id)?.birth_date as string);
      expect(course?.grades).toEqual([String(grade).padStart(2, '0')]);
    }
  });
});
