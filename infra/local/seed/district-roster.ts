// A generated school district as a OneRoster CSV 1.2.1 bulk zip, the way a district's student
// information system hands one over: its schools, a school year of two terms, courses and classes per
// school, students, teachers and guardians (each guardian naming a student among its agentSourcedIds)
// with their roles at their school, and enrollments. Its ids are the vendor's own (not UUIDs), so the
// import derives its ids as it would for any vendor. Deterministic for a given size and seed.
import { strToU8, zipSync } from 'fflate';
import { type OneRosterTable, tableCsv } from '../../../shared/exports/oneroster-csv';
import { Random } from './random';
import { femaleNames, maleNames, surnames } from './vocabulary';

export interface DistrictSize {
  schools: number;
  students: number;
  teachers: number;
  guardians: number;
  classes: number;
  /** Classes each student is enrolled in, at their school. */
  classesPerStudent: number;
}

/**
 * A district of `students` in the proportions of a 100,000-student district (5,000 teachers, a guardian
 * a student, 4,000 classes, 800,000 enrollments), a school per 2,000 students.
 */
export function districtOf(students: number): DistrictSize {
  const schools = Math.max(1, Math.round(students / 2000));
  return {
    schools,
    students,
    teachers: Math.max(schools, Math.round(students / 20)),
    guardians: students,
    classes: Math.max(schools * 8, Math.round(students / 25)),
    classesPerStudent: 8,
  };
}

type Row = Record<string, string>;

const pad = (n: number) => String(n).padStart(6, '0');

/** How many records a district's zip makes: one a row, and a role record per user. */
export const recordsOf = (size: DistrictSize) => {
  const users = size.students + size.teachers + size.guardians;
  const enrollments = size.students * size.classesPerStudent + size.classes;
  return 1 + size.schools + 3 + size.schools * 10 + size.classes + users * 2 + enrollments;
};

export function districtRosterZip(size: DistrictSize, seed = 20261125): Uint8Array {
  const r = new Random(seed);
  const modified = '2026-09-01T08:00:00.000Z';
  const row = (cells: Row): Row => ({ status: 'active', dateLastModified: modified, ...cells });
  const tables: Record<string, Row[]> = {
    orgs: [row({ sourcedId: 'district', name: 'Demo District', type: 'district', identifier: 'D1' })],
    academicSessions: [
      row({
        sourcedId: 'sy2027',
        title: '2026/27',
        type: 'schoolYear',
        startDate: '2026-09-01',
        endDate: '2027-06-30',
        schoolYear: '2027',
      }),
      ...['2026-09-01:2027-01-31', '2027-02-01:2027-06-30'].map((span, i) => {
        const [startDate, endDate] = span.split(':') as [string, string];
        return row({
          sourcedId: `term${i + 1}`,
          title: `Term ${i + 1}`,
          type: 'term',
          startDate,
          endDate,
          parentSourcedId: 'sy2027',
          schoolYear: '2027',
        });
      }),
    ],
    courses: [],
    classes: [],
    users: [],
    roles: [],
    demographics: [],
    enrollments: [],
  };
  const at = <T>(list: readonly T[], i: number) => list[i % list.length] as T;
  const school = (n: number) => `school${String((n % size.schools) + 1).padStart(3, '0')}`;
  for (let s = 0; s < size.schools; s++) {
    tables.orgs?.push(
      row({ sourcedId: school(s), name: `School ${s + 1}`, type: 'school', parentSourcedId: 'district' }),
    );
    for (let c = 0; c < 10; c++)
      tables.courses?.push(
        row({
          sourcedId: `${school(s)}-course${c + 1}`,
          schoolYearSourcedId: 'sy2027',
          title: `Course ${c + 1}`,
          courseCode: `C${c + 1}`,
          orgSourcedId: school(s),
        }),
      );
  }
  /** Each school's classes, and a teacher for each. */
  const classesOf = Array.from({ length: size.schools }, () => [] as string[]);
  const person = (sourcedId: string, role: string, schoolId: string, agents = '') => {
    const female = r.chance(0.5);
    const givenName = r.pick(female ? femaleNames : maleNames);
    tables.users?.push(
      row({
        sourcedId,
        enabledUser: 'true',
        username: sourcedId,
        givenName,
        familyName: `${r.pick(surnames)} ${r.pick(surnames)}`,
        identifier: sourcedId.toUpperCase(),
        email: `${sourcedId}@district.example`,
        agentSourcedIds: agents,
        primaryOrgSourcedId: schoolId,
      }),
    );
    tables.roles?.push(
      row({
        sourcedId: `${sourcedId}-role`,
        userSourcedId: sourcedId,
        roleType: 'primary',
        role,
        orgSourcedId: schoolId,
      }),
    );
    const born = role === 'student' ? ['2009-09-01', '2020-08-31'] : ['1960-01-01', '1998-12-31'];
    tables.demographics?.push(
      row({
        sourcedId,
        birthDate: r.date(born[0] as string, born[1] as string),
        sex: female ? 'female' : 'male',
      }),
    );
  };
  for (let t = 0; t < size.teachers; t++) person(`teacher${pad(t + 1)}`, 'teacher', school(t));
  for (let c = 0; c < size.classes; c++) {
    const s = c % size.schools;
    const sourcedId = `class${pad(c + 1)}`;
    classesOf[s]?.push(sourcedId);
    tables.classes?.push(
      row({
        sourcedId,
        title: `Class ${c + 1}`,
        courseSourcedId: `${school(s)}-course${(Math.floor(c / size.schools) % 10) + 1}`,
        classCode: `K${c + 1}`,
        classType: 'scheduled',
        schoolSourcedId: school(s),
        termSourcedIds: 'term1,term2',
      }),
    );
    // The school's teachers are those numbered s, s + schools, …: each class takes one of them.
    const teachersHere = Math.ceil((size.teachers - s) / size.schools);
    const teacher = s + size.schools * (Math.floor(c / size.schools) % Math.max(1, teachersHere));
    tables.enrollments?.push(
      row({
        sourcedId: `${sourcedId}-teacher`,
        classSourcedId: sourcedId,
        schoolSourcedId: school(s),
        userSourcedId: `teacher${pad(teacher + 1)}`,
        role: 'teacher',
        primary: 'true',
      }),
    );
  }
  for (let n = 0; n < size.students; n++) {
    const s = n % size.schools;
    const student = `student${pad(n + 1)}`;
    person(student, 'student', school(s));
    const here = classesOf[s] ?? [];
    const first = r.int(0, here.length - 1);
    for (let k = 0; k < Math.min(size.classesPerStudent, here.length); k++) {
      const classId = at(here, first + k);
      tables.enrollments?.push(
        row({
          sourcedId: `${classId}-${student}`,
          classSourcedId: classId,
          schoolSourcedId: school(s),
          userSourcedId: student,
          role: 'student',
          primary: 'false',
        }),
      );
    }
  }
  for (let g = 0; g < size.guardians; g++)
    person(`guardian${pad(g + 1)}`, 'guardian', school(g), `student${pad((g % size.students) + 1)}`);

  const written = Object.keys(tables);
  const manifest = [
    'propertyName,value',
    'manifest.version,1.0',
    'oneroster.version,1.2',
    ...written.map((table) => `file.${table},bulk`),
    'source.systemName,Demo District SIS',
  ].join('\r\n');
  return zipSync({
    'manifest.csv': strToU8(`${manifest}\r\n`),
    ...Object.fromEntries(
      Object.entries(tables).map(([table, rows]) => [
        `${table}.csv`,
        strToU8(tableCsv(table as OneRosterTable, rows)),
      ]),
    ),
  });
}
