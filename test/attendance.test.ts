// Students' attendance over HTTP (issue "Grades and attendance", deliverables 1, 2 and 6): the demo's four
// weeks of whole-day registers, the conventions of every group (contract.md sections 2 to 5), what an
// attendance record must name (a class or none for the whole day, a student, one record a class, student
// and date), and who reads and writes it: a class's teachers that class's, never a whole day's; a student
// their own and a guardian their children's; staff and administrators every one; another teacher none
// (404, as any record out of reach); a client registered with schools its schools' classes'.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoSchoolDays } from '../infra/local/seed/attendance';
import { LIMITS } from '../shared/domain/limits';
import { recordSchemas } from '../shared/schemas/records';
import { expectProblem, json } from './support/contract';
import { demoPeople } from './support/demo-people';
import { registeredClient } from './support/oauth';
import { startTestApi, type TestApi, waitForSyncLag } from './support/test-api';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.stop());

type Row = Record<string, unknown>;

const { tokenOf, classesOf, studentsOf, studentsOfClass, sharedClass, studentNotInClass, auditEventsOf } =
  demoPeople(() => api);

/** Every attendance record a caller reads (the administrator's own token without a username), page by page. */
async function attendance(username?: string): Promise<Row[]> {
  const token = username === undefined ? undefined : await tokenOf(username);
  const rows: Row[] = [];
  let next: string | undefined = '/api/attendance?items_per_page=500';
  while (next) {
    const page: Row = await json<Row>(await api.get(next, token ? { token } : {}));
    rows.push(...(page.attendance as Row[]));
    next = page.next_cursor ? `/api/attendance?items_per_page=500&cursor=${page.next_cursor}` : undefined;
  }
  return rows;
}

const idsOf = (rows: readonly Row[]) => rows.map((r) => r.attendance_id as string).sort();
const byId = (a: Row, b: Row) => String(a.attendance_id).localeCompare(String(b.attendance_id));

/** A mark for a day after the demo's four weeks, each test its own so none meets another's claim. */
let nextDay = 1;
const laterDay = () => `2026-11-${String(9 + nextDay++).padStart(2, '0')}`;

const late = (classId: string | null, studentId: string, date: string) => ({
  class_id: classId,
  student_id: studentId,
  date,
  status: 'tardy',
  minutes_late: 10,
  note: 'Chegou depois do toque.',
});

/** A signed-in account for another of the demo's teachers, who teaches none of the demo teacher's classes. */
async function otherTeacher(): Promise<string> {
  const taught = await classesOf('teacher', 'teacher');
  const teachers = (await json<Row>(await api.get('/api/teachers?items_per_page=500'))).teachers as Row[];
  let other: string | undefined;
  for (const teacher of teachers) {
    const enrollments = await api.records.enrollmentsOfPerson(teacher.entity_id as string);
    const teaching = enrollments.filter((e) => e.role === 'teacher').map((e) => e.class_id);
    if (teaching.length > 0 && !teaching.some((id) => taught.has(id))) {
      other = teacher.entity_id as string;
      break;
    }
  }
  expect(other, 'a teacher of other classes').toBeDefined();
  const now = new Date().toISOString();
  const username = `other-teacher-${randomUUID().slice(0, 8)}`;
  await api.users.create({
    user_id: randomUUID(),
    username,
    password_hash: 'not-a-hash',
    status: 'active',
    entity_id: other as string,
    admin: false,
    created_at: now,
    updated_at: now,
  });
  return username;
}

describe('the demo tenant (deliverable 6)', () => {
  it("holds the demo teacher's registers: two lessons a week for four weeks, every student of their classes marked", async () => {
    const [all, taught] = await Promise.all([attendance(), classesOf('teacher', 'teacher')]);
    expect(demoSchoolDays).toHaveLength(20);
    for (const mark of all) {
      expect(recordSchemas.attendance.safeParse(mark).error).toBeUndefined();
      expect(taught.has(mark.class_id as string)).toBe(true);
      expect(demoSchoolDays).toContain(mark.date);
    }
    for (const classId of taught) {
      const students = await studentsOfClass(classId);
      const ofClass = all.filter((a) => a.class_id === classId);
      const dates = [...new Set(ofClass.map((a) => a.date as string))];
      expect(dates).toHaveLength(8);
      for (const date of dates) {
        expect(
          ofClass
            .filter((a) => a.date === date)
            .map((a) => a.student_id)
            .sort(),
        ).toEqual([...students].sort());
      }
    }
    const present = all.filter((a) => a.status === 'present').length;
    expect(present / all.length).toBeGreaterThan(0.8);
    expect(all.filter((a) => a.status === 'tardy').every((a) => Number(a.minutes_late) > 0)).toBe(true);
  });
});

/** A student's whole day on a later date, made by the administrator: no teacher reads it. */
async function wholeDay(studentId: string): Promise<Row> {
  const mark = { class_id: null, student_id: studentId, date: laterDay(), status: 'present' };
  return json<Row>(await api.send('POST', '/api/attendance', mark), 201);
}

describe('attendance records', () => {
  it('are made once per class, student and date, read, replaced with If-Match and deleted, and keep their student from being deleted', async () => {
    const { classId, studentId } = await sharedClass();
    const date = laterDay();
    const body = late(classId, studentId, date);
    const since = new Date(Date.now() - 1_000).toISOString();
    const created = await api.send('POST', '/api/attendance', body);
    const mark = await json<Row>(created, 201);
    expect(mark).toMatchObject(body);
    const path = `/api/attendance/${mark.attendance_id}`;
    expect(created.headers.get('location')).toBe(`${api.url}${path}`);
    expect(await json<Row>(await api.get(path))).toEqual(mark);
    const again = await expectProblem(await api.send('POST', '/api/attendance', body), 409);
    expect(again.errors).toEqual(
      ['class_id', 'student_id', 'date'].map((name) => ({
        name,
        in: 'body',
        reason: `taken by attendance_id ${mark.attendance_id}`,
      })),
    );
    // The same student's whole day on that date is another record.
    const day = await json<Row>(
      await api.send('POST', '/api/attendance', {
        ...body,
        class_id: null,
        status: 'present',
        minutes_late: null,
      }),
      201,
    );
    await expectProblem(await api.send('DELETE', `/api/students/${studentId}`), 409);

    const changed = { ...body, status: 'excused', minutes_late: null, note: 'Consulta médica.' };
    const replaced = await api.send('PUT', path, changed, { headers: { 'if-match': '"1"' } });
    expect(await json<Row>(replaced)).toMatchObject({ status: 'excused', minutes_late: null });
    await expectProblem(await api.send('PUT', path, body, { headers: { 'if-match': '"1"' } }), 412);
    const moved = await expectProblem(await api.send('PUT', path, { ...changed, date: laterDay() }), 409);
    expect(moved.errors).toEqual([{ name: 'date', in: 'body', reason: `must be ${date}` }]);
    expect((await api.send('DELETE', path)).status).toBe(204);
    await expectProblem(await api.get(path), 410);
    await waitForSyncLag();
    const deleted = await json<Row>(await api.get(`/api/attendance/deleted?since=${since}`));
    expect(deleted.deleted).toEqual([{ attendance_id: mark.attendance_id, deleted_at: expect.any(String) }]);
    // Deleting it releases its class, student and date: they take a new record.
    const anew = await json<Row>(await api.send('POST', '/api/attendance', body), 201);
    for (const id of [anew.attendance_id, day.attendance_id]) {
      expect((await api.send('DELETE', `/api/attendance/${id}`)).status).toBe(204);
    }
  });

  it('refuse a missing class or student, a demo day taken, a bad status, date, lateness or note (4xx), writing nothing', async () => {
    const { classId, studentId } = await sharedClass();
    const body = late(classId, studentId, laterDay());
    const before = await attendance();
    const missing = '00000000-0000-4000-8000-000000000000';
    const cases: [Row, string][] = [
      [{ ...body, class_id: missing }, 'class_id'],
      [{ ...body, class_id: 'room-12' }, 'class_id'],
      [{ ...body, student_id: missing }, 'student_id'],
      [{ ...body, student_id: undefined }, 'student_id'],
      [{ ...body, status: 'late' }, 'status'],
      [{ ...body, date: '2026-02-30' }, 'date'],
      [{ ...body, date: undefined }, 'date'],
      [{ ...body, status: 'present' }, 'minutes_late'],
      [{ ...body, minutes_late: 0 }, 'minutes_late'],
      [{ ...body, minutes_late: 7.5 }, 'minutes_late'],
      [{ ...body, minutes_late: 24 * 60 + 1 }, 'minutes_late'],
      [{ ...body, note: 'x'.repeat(501) }, 'note'],
      [{ ...body, period: 2 }, 'period'],
    ];
    for (const [sent, field] of cases) {
      const problem = await expectProblem(await api.send('POST', '/api/attendance', sent), 400);
      expect(problem.errors, JSON.stringify(sent)).toContainEqual(expect.objectContaining({ name: field }));
    }
    const demo = before.find((a) => a.class_id === classId && a.student_id === studentId) as Row;
    const taken = await expectProblem(
      await api.send('POST', '/api/attendance', { ...body, date: demo.date }),
      409,
    );
    expect(taken.errors).toContainEqual(expect.objectContaining({ name: 'date' }));
    expect(await attendance()).toEqual(before);
  });
});

describe('who reads attendance (deliverable 2)', () => {
  it("a teacher: the attendance of the classes they teach, never a whole day's, and another teacher none of it (404)", async () => {
    const { classId, studentId } = await sharedClass();
    const made = await json<Row>(
      await api.send('POST', '/api/attendance', late(classId, studentId, laterDay())),
      201,
    );
    const [all, taught] = await Promise.all([attendance(), classesOf('teacher', 'teacher')]);
    const expected = all.filter((a) => taught.has(a.class_id as string));
    expect(idsOf(expected)).toContain(made.attendance_id);
    expect(idsOf(await attendance('teacher'))).toEqual(idsOf(expected));
    const token = await tokenOf('teacher');
    const day = await wholeDay(studentId);
    await expectProblem(await api.get(`/api/attendance/${day.attendance_id}`, { token }), 404);
    expect((await api.send('DELETE', `/api/attendance/${day.attendance_id}`)).status).toBe(204);
    expect(await json<Row>(await api.get(`/api/attendance/${made.attendance_id}`, { token }))).toEqual(made);

    const other = await otherTeacher();
    expect(idsOf(await attendance(other))).not.toContain(made.attendance_id);
    const theirs = await tokenOf(other);
    await expectProblem(await api.get(`/api/attendance/${made.attendance_id}`, { token: theirs }), 404);
    expect((await api.send('DELETE', `/api/attendance/${made.attendance_id}`)).status).toBe(204);
  });

  it("a student: all their own; a guardian: their children's; another's answers 404", async () => {
    const all = await attendance();
    for (const [username, through] of [
      ['student', 'student'],
      ['guardian', 'tutor'],
    ] as const) {
      const students = await studentsOf(username, through);
      const expected = all.filter((a) => students.has(a.student_id as string));
      if (username === 'student') expect(expected.length).toBeGreaterThan(0);
      expect(idsOf(await attendance(username)), username).toEqual(idsOf(expected));
      const token = await tokenOf(username);
      const other = all.find((a) => !students.has(a.student_id as string)) as Row;
      await expectProblem(await api.get(`/api/attendance/${other.attendance_id}`, { token }), 404);
    }
  });

  it('staff read every record', async () => {
    expect(idsOf(await attendance('staff'))).toEqual(idsOf(await attendance()));
  });

  it("a client: by the attendance scopes; registered with schools, their classes' records and no whole day's", async () => {
    const { classId, studentId } = await sharedClass();
    const made = await json<Row>(
      await api.send('POST', '/api/attendance', late(classId, studentId, laterDay())),
      201,
    );
    const classes = (await json<Row>(await api.get('/api/classes?items_per_page=500'))).classes as Row[];
    const school = classes.find((c) => c.class_id === classId)?.school_id as string;
    const { token } = await registeredClient(api, {
      name: 'One school attendance',
      scopes: ['attendance:read', 'attendance:write'],
      schools: [school],
    });
    const page = await json<Row>(await api.get('/api/attendance?items_per_page=500', { token }));
    const schoolClasses = new Set(classes.filter((c) => c.school_id === school).map((c) => c.class_id));
    const expected = (await attendance()).filter((a) => schoolClasses.has(a.class_id));
    expect(idsOf(expected)).toContain(made.attendance_id);
    expect(idsOf(page.attendance as Row[])).toEqual(idsOf(expected).slice(0, 500));
    const day = await wholeDay(studentId);
    await expectProblem(await api.get(`/api/attendance/${day.attendance_id}`, { token }), 404);
    expect((await api.send('DELETE', `/api/attendance/${day.attendance_id}`)).status).toBe(204);
    const refusedDay = await expectProblem(
      await api.send('POST', '/api/attendance', late(null, studentId, laterDay()), { token }),
      403,
    );
    expect(refusedDay.errors).toEqual([
      { name: 'class_id', in: 'body', reason: "must be a class of this client's schools" },
    ]);
    // Leaving class_id out is a whole day too.
    const { class_id: _none, ...noClass } = late(null, studentId, laterDay());
    const unnamed = await expectProblem(
      await api.send(
        'POST',
        '/api/attendance',
        { ...noClass, status: 'present', minutes_late: null },
        { token },
      ),
      403,
    );
    expect(unnamed.errors).toEqual(refusedDay.errors);
    const gradebookOnly = await registeredClient(api, { name: 'Gradebook only', scopes: ['gradebook:read'] });
    await expectProblem(await api.get('/api/attendance', { token: gradebookOnly.token }), 403);
    expect((await api.send('DELETE', `/api/attendance/${made.attendance_id}`)).status).toBe(204);
  });
});

describe('who writes attendance (deliverable 2)', () => {
  it('a teacher: the attendance of the classes they teach, which the student and their guardian read', async () => {
    const { classId, studentId } = await sharedClass();
    const token = await tokenOf('teacher');
    const made = await json<Row>(
      await api.send('POST', '/api/attendance', late(classId, studentId, laterDay()), { token }),
      201,
    );
    const path = `/api/attendance/${made.attendance_id}`;
    const { attendance_id, created_at, updated_at, ...body } = made;
    const corrected = await json<Row>(
      await api.send('PUT', path, { ...body, status: 'present', minutes_late: null, note: '' }, { token }),
    );
    expect(corrected).toMatchObject({ status: 'present', minutes_late: null });
    expect(await json<Row>(await api.get(path, { token: await tokenOf('student') }))).toEqual(corrected);
    const guardians = await studentsOf('guardian', 'tutor');
    if (guardians.has(studentId)) {
      expect(await json<Row>(await api.get(path, { token: await tokenOf('guardian') }))).toEqual(corrected);
    }
    expect((await api.send('DELETE', path, undefined, { token })).status).toBe(204);
  });

  it("refuses a teacher a whole day's or another class's (403 to make, 404 to change), and a student, guardian or staff member any (403), writing nothing", async () => {
    const token = await tokenOf('teacher');
    const { studentId } = await sharedClass();
    const taught = await classesOf('teacher', 'teacher');
    const before = await attendance();
    const day = await expectProblem(
      await api.send('POST', '/api/attendance', late(null, studentId, laterDay()), { token }),
      403,
    );
    expect(day.type).toBe('urn:problem:school-api:outside-reach');
    const classes = (await json<Row>(await api.get('/api/classes?items_per_page=500'))).classes as Row[];
    const elsewhere = classes.find((c) => !taught.has(c.class_id as string)) as Row;
    const made = await expectProblem(
      await api.send('POST', '/api/attendance', late(elsewhere.class_id as string, studentId, laterDay()), {
        token,
      }),
      403,
    );
    expect(made.errors).toEqual([{ name: 'class_id', in: 'body', reason: 'is not a class you teach' }]);
    const own = await wholeDay(studentId);
    const { attendance_id, created_at, updated_at, ...ownBody } = own;
    const path = `/api/attendance/${attendance_id}`;
    await expectProblem(await api.send('PUT', path, { ...ownBody, status: 'absent' }, { token }), 404);
    await expectProblem(await api.send('DELETE', path, undefined, { token }), 404);
    for (const username of ['student', 'guardian', 'staff']) {
      const person = await tokenOf(username);
      await expectProblem(
        await api.send('PUT', path, { ...ownBody, status: 'absent' }, { token: person }),
        403,
      );
    }
    expect(await attendance()).toEqual([...before, own].sort(byId));
    expect((await api.send('DELETE', `/api/attendance/${attendance_id}`)).status).toBe(204);
  });
});

describe("a class's register (deliverable 4)", () => {
  it('a teacher takes it in one request: every mark made, then replaced when sent again, in one audit event naming every student', async () => {
    const { classId, studentId } = await sharedClass();
    const token = await tokenOf('teacher');
    const date = laterDay();
    const students = (await studentsOfClass(classId)).slice(0, LIMITS.bulkEntries);
    expect(students).toContain(studentId);
    const marks = students.map((id, i) =>
      i % 7 === 3 ? { student_id: id, status: 'absent' } : { student_id: id, status: 'present' },
    );
    const path = `/api/classes/${classId}/attendance/${date}`;
    const first = await api.send('PUT', path, { marks }, { token });
    const register = await json<Row>(first);
    const written = register.attendance as Row[];
    expect(register).toMatchObject({ class_id: classId, date });
    expect(written.map((a) => [a.student_id, a.status, a.class_id, a.date])).toEqual(
      marks.map((m) => [m.student_id, m.status, classId, date]),
    );
    const [event, ...more] = await auditEventsOf(first);
    expect(more).toEqual([]);
    expect(event).toMatchObject({ route: 'put-class-register', group: 'students', outcome: 200 });
    expect([...(event?.record_ids ?? [])].sort()).toEqual([...students].sort());
    expect(event?.entity_ids).toHaveLength(students.length);

    const mine = written.find((a) => a.student_id === studentId) as Row;
    const student = await tokenOf('student');
    expect(
      await json<Row>(await api.get(`/api/attendance/${mine.attendance_id}`, { token: student })),
    ).toEqual(mine);
    const other = await tokenOf(await otherTeacher());
    await expectProblem(await api.get(`/api/attendance/${mine.attendance_id}`, { token: other }), 404);

    // Sent again with one mark changed: the same records, that one replaced, nothing made.
    const before = (await attendance()).length;
    const corrected = marks.map((m) =>
      m.student_id === studentId ? { student_id: studentId, status: 'tardy', minutes_late: 12 } : m,
    );
    const again = await json<Row>(await api.send('PUT', path, { marks: corrected }, { token }));
    const rewritten = again.attendance as Row[];
    expect(rewritten.map((a) => a.attendance_id)).toEqual(written.map((a) => a.attendance_id));
    expect(rewritten.find((a) => a.student_id === studentId)).toMatchObject({
      status: 'tardy',
      minutes_late: 12,
    });
    expect((await attendance()).length).toBe(before);
    for (const a of rewritten) await api.send('DELETE', `/api/attendance/${a.attendance_id}`);
  });

  it('sent several times at once for a new day, makes each mark once and answers every request with them', async () => {
    const { classId } = await sharedClass();
    const token = await tokenOf('teacher');
    const students = (await studentsOfClass(classId)).slice(0, 5);
    const marks = students.map((student_id) => ({ student_id, status: 'present' }));
    const ids = (answer: Row[]) => answer.map((a) => a.attendance_id);
    // The race (both read the day empty, one claims its keys first) is not won every time: four days.
    for (let day = 0; day < 4; day++) {
      const path = `/api/classes/${classId}/attendance/${laterDay()}`;
      const before = (await attendance()).length;
      const answers = await Promise.all(
        Array.from({ length: 12 }, async () => {
          const response = await api.send('PUT', path, { marks }, { token });
          return (await json<Row>(response)).attendance as Row[];
        }),
      );
      for (const answer of answers) expect(ids(answer)).toEqual(ids(answers[0] as Row[]));
      expect((await attendance()).length).toBe(before + students.length);
      for (const a of answers[0] as Row[]) await api.send('DELETE', `/api/attendance/${a.attendance_id}`);
    }
  });

  it('still corrects a mark of a student who has left the class, and makes none of theirs on a new day', async () => {
    const { classId } = await sharedClass();
    const token = await tokenOf('teacher');
    const [leaving] = await studentsOfClass(classId);
    const path = `/api/classes/${classId}/attendance/${laterDay()}`;
    const marked = await json<Row>(
      await api.send('PUT', path, { marks: [{ student_id: leaving, status: 'absent' }] }, { token }),
    );
    const student = await json<Row>(await api.get(`/api/students/${leaving}`));
    const enrollment = (await api.records.enrollmentsOfClass(classId)).find(
      (e) => e.entity_id === student.entity_id && e.role === 'student',
    );
    const { class_id, entity_id, role, primary, begin_date, end_date } = enrollment as Row;
    await api.send('DELETE', `/api/enrollments/${enrollment?.enrollment_id}`);
    const corrected = await json<Row>(
      await api.send('PUT', path, { marks: [{ student_id: leaving, status: 'excused' }] }, { token }),
    );
    expect((corrected.attendance as Row[])[0]).toMatchObject({
      attendance_id: (marked.attendance as Row[])[0]?.attendance_id,
      status: 'excused',
    });
    const later = `/api/classes/${classId}/attendance/${laterDay()}`;
    const problem = await expectProblem(
      await api.send('PUT', later, { marks: [{ student_id: leaving, status: 'present' }] }, { token }),
      400,
    );
    expect(problem.errors?.map((e) => e.name)).toEqual(['marks[0].student_id']);
    await api.send('DELETE', `/api/attendance/${(marked.attendance as Row[])[0]?.attendance_id}`);
    await json<Row>(
      await api.send('POST', '/api/enrollments', {
        class_id,
        entity_id,
        role,
        primary,
        begin_date,
        end_date,
      }),
      201,
    );
  });

  it('is refused whole, writing nothing: a bad date, class, mark or student, a student twice, too many, or a class the teacher does not teach', async () => {
    const { classId, studentId } = await sharedClass();
    const token = await tokenOf('teacher');
    const before = await attendance();
    const date = laterDay();
    const path = `/api/classes/${classId}/attendance/${date}`;
    const good = { student_id: studentId, status: 'present' };
    const missing = '00000000-0000-4000-8000-000000000000';
    const refused: [string, unknown, number, string][] = [
      [`/api/classes/${classId}/attendance/2026-02-30`, { marks: [good] }, 400, 'date'],
      [`/api/classes/room-12/attendance/${date}`, { marks: [good] }, 400, 'class_id'],
      [path, { marks: [] }, 400, 'marks'],
      [path, { marks: [good, good] }, 400, 'marks'],
      [path, { marks: [good, { student_id: missing, status: 'present' }] }, 400, 'marks[1].student_id'],
      [
        path,
        { marks: [good, { ...good, student_id: randomUUID(), status: 'late' }] },
        400,
        'marks[1].status',
      ],
      [path, { marks: [{ ...good, minutes_late: 5 }] }, 400, 'marks[0].minutes_late'],
      // A student of the school the class does not enroll.
      [
        path,
        { marks: [good, { student_id: await studentNotInClass(classId), status: 'present' }] },
        400,
        'marks[1].student_id',
      ],
      [path, { marks: Array.from({ length: LIMITS.bulkEntries + 1 }, () => good) }, 400, 'marks'],
      [path, { students: [good] }, 400, 'students'],
    ];
    for (const [at, body, status, field] of refused) {
      const problem = await expectProblem(await api.send('PUT', at, body, { token }), status);
      expect(problem.errors, `${at} ${JSON.stringify(body)}`).toContainEqual(
        expect.objectContaining({ name: field }),
      );
    }
    await expectProblem(
      await api.send('PUT', `/api/classes/${missing}/attendance/${date}`, { marks: [good] }),
      404,
    );
    const taught = await classesOf('teacher', 'teacher');
    const classes = (await json<Row>(await api.get('/api/classes?items_per_page=500'))).classes as Row[];
    const elsewhere = classes.find((c) => !taught.has(c.class_id as string)) as Row;
    await expectProblem(
      await api.send(
        'PUT',
        `/api/classes/${elsewhere.class_id}/attendance/${date}`,
        { marks: [good] },
        { token },
      ),
      403,
    );
    await expectProblem(
      await api.send('PUT', path, { marks: [good] }, { token: await tokenOf('student') }),
      403,
    );
    expect(await attendance()).toEqual(before);
  });
});
