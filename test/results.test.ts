// Students' results over HTTP (issue "Grades and attendance", deliverables 1, 2 and 6): the demo's graded
// tests, the conventions of every group (contract.md sections 2 to 5), what a result must name (its class,
// a line item of that class, a student), and who reads and writes them: the class's teachers all of them,
// a student their own and a guardian their children's once the line item is released to students, staff
// and administrators every one, another class's teacher none (404, as any record out of reach), and a
// client registered with schools those of its schools' classes.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidInputError } from '../shared/domain/errors';
import { periodGrades } from '../shared/domain/grade-average';
import { LIMITS } from '../shared/domain/limits';
import {
  classStillEnrolls,
  refuseStudentNotInClass,
  refuseStudentsNotInClass,
} from '../shared/records/class-students';
import { RecordWriter } from '../shared/records/record-writer';
import { recordSchemas } from '../shared/schemas/records';
import { resultInsertRequest } from '../shared/schemas/requests';
import { expectProblem, json } from './support/contract';
import { demoPeople } from './support/demo-people';
import { personBody } from './support/fixtures';
import { registeredClient } from './support/oauth';
import { createRecord, startTestApi, type TestApi, waitForSyncLag } from './support/test-api';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.stop());

type Row = Record<string, unknown>;

const { tokenOf, classesOf, studentsOf, studentsOfClass, sharedClass, studentNotInClass, auditEventsOf } =
  demoPeople(() => api);

/** Every record of a group a caller reads (the administrator's own token without a username), page by page. */
async function walk(group: 'results' | 'line_items', username?: string): Promise<Row[]> {
  const token = username === undefined ? undefined : await tokenOf(username);
  const rows: Row[] = [];
  let next: string | undefined = `/api/${group}?items_per_page=500`;
  while (next) {
    const page: Row = await json<Row>(await api.get(next, token ? { token } : {}));
    rows.push(...(page[group] as Row[]));
    next = page.next_cursor ? `/api/${group}?items_per_page=500&cursor=${page.next_cursor}` : undefined;
  }
  return rows;
}

const results = (username?: string) => walk('results', username);
const idsOf = (rows: readonly Row[]) => rows.map((r) => r.result_id as string).sort();

/** The demo's released and unreleased line items, by id. */
async function lineItemsById(): Promise<Map<string, Row>> {
  return new Map((await walk('line_items')).map((i) => [i.line_item_id as string, i]));
}

/** A class the demo student is in and the demo teacher teaches, its unreleased project, and the student. */
async function sharedClassItems() {
  const [{ classId, studentId }, items] = await Promise.all([sharedClass(), lineItemsById()]);
  // The demo's two: the test, released, and the project, released only by a test below.
  const ofClass = [...items.values()].filter((i) => i.class_id === classId);
  const project = ofClass.find((i) => i.title === 'Trabalho de grupo') as Row;
  const test = ofClass.find((i) => i.title === 'Teste de avaliação 1') as Row;
  return { classId, project, test, studentId };
}

const graded = (classId: string, lineItemId: string, studentId: string) => ({
  class_id: classId,
  line_item_id: lineItemId,
  student_id: studentId,
  status: 'fully graded',
  score: 16.5,
  score_date: '2026-10-26',
  comment: 'Bom trabalho de pesquisa.',
});

describe('the demo tenant (deliverable 6)', () => {
  it("grades every student's test in each of their classes, and nothing else yet", async () => {
    const [all, items, enrollments] = await Promise.all([
      results(),
      lineItemsById(),
      json<Row>(await api.get('/api/enrollments?items_per_page=500')),
    ]);
    expect(all.length).toBeGreaterThan(0);
    for (const result of all) {
      expect(recordSchemas.results.safeParse(result).error).toBeUndefined();
      const item = items.get(result.line_item_id as string) as Row;
      expect(item).toMatchObject({ class_id: result.class_id, released: true });
      expect(result.status).toBe('fully graded');
    }
    const students = (enrollments.enrollments as Row[]).filter((e) => e.role === 'student');
    expect(students.length).toBeLessThanOrEqual(all.length);
  });
});

describe('results', () => {
  it('are created once per line item and student, read, replaced with If-Match and deleted, and keep their line item and student from being deleted', async () => {
    const { classId, project, studentId } = await sharedClassItems();
    const body = graded(classId, project.line_item_id as string, studentId);
    const since = new Date(Date.now() - 1_000).toISOString();
    const created = await api.send('POST', '/api/results', body);
    const result = await json<Row>(created, 201);
    expect(result).toMatchObject({ ...body, text_score: null });
    const path = `/api/results/${result.result_id}`;
    expect(created.headers.get('location')).toBe(`${api.url}${path}`);
    expect(await json<Row>(await api.get(path))).toEqual(result);
    const again = await expectProblem(await api.send('POST', '/api/results', { ...body, score: 3 }), 409);
    expect(again.errors).toEqual(
      ['line_item_id', 'student_id'].map((name) => ({
        name,
        in: 'body',
        reason: `taken by result_id ${result.result_id}`,
      })),
    );

    const refusedItem = await expectProblem(
      await api.send('DELETE', `/api/line_items/${project.line_item_id}`),
      409,
    );
    expect(refusedItem.detail).toContain('still named by');
    await expectProblem(await api.send('DELETE', `/api/students/${studentId}`), 409);

    const changed = { ...body, score: 17, comment: 'Muito bom.' };
    const replaced = await api.send('PUT', path, changed, { headers: { 'if-match': '"1"' } });
    expect(await json<Row>(replaced)).toMatchObject({ score: 17, comment: 'Muito bom.' });
    await expectProblem(await api.send('PUT', path, body, { headers: { 'if-match': '"1"' } }), 412);
    const moved = await expectProblem(await api.send('PUT', path, { ...body, student_id: 'x' }), 400);
    expect(moved.errors).toContainEqual(expect.objectContaining({ name: 'student_id' }));
    expect((await api.send('DELETE', path)).status).toBe(204);
    await expectProblem(await api.get(path), 410);
    await waitForSyncLag();
    const deleted = await json<Row>(await api.get(`/api/results/deleted?since=${since}`));
    expect(deleted.deleted).toEqual([{ result_id: result.result_id, deleted_at: expect.any(String) }]);
    // Deleting it releases its line item and student: they take a new result.
    const anew = await json<Row>(await api.send('POST', '/api/results', body), 201);
    expect((await api.send('DELETE', `/api/results/${anew.result_id}`)).status).toBe(204);
  });

  it('refuse a missing class, line item or student, a student the class does not enroll, a line item of another class, a bad status, score or date (400), writing nothing', async () => {
    const { classId, project, studentId } = await sharedClassItems();
    const items = await lineItemsById();
    const elsewhere = [...items.values()].find((i) => i.class_id !== classId) as Row;
    const body = graded(classId, project.line_item_id as string, studentId);
    const before = (await results()).length;
    const missing = '00000000-0000-4000-8000-000000000000';
    const cases: [Row, string][] = [
      [{ ...body, class_id: missing }, 'class_id'],
      [{ ...body, line_item_id: missing }, 'line_item_id'],
      [{ ...body, student_id: missing }, 'student_id'],
      [{ ...body, line_item_id: elsewhere.line_item_id }, 'line_item_id'],
      [{ ...body, status: 'graded' }, 'status'],
      [{ ...body, score: '16' }, 'score'],
      [{ ...body, text_score: '' }, 'text_score'],
      [{ ...body, score_date: '2026-02-30' }, 'score_date'],
      [{ ...body, score_date: undefined }, 'score_date'],
      [{ ...body, grade: 'A' }, 'grade'],
      // A student the class does not enroll: no result of theirs is made there.
      [{ ...body, student_id: await studentNotInClass(classId) }, 'student_id'],
    ];
    for (const [sent, field] of cases) {
      const problem = await expectProblem(await api.send('POST', '/api/results', sent), 400);
      expect(problem.errors, JSON.stringify(sent)).toContainEqual(expect.objectContaining({ name: field }));
    }
    const other = await expectProblem(
      await api.send('POST', '/api/results', { ...body, line_item_id: elsewhere.line_item_id }),
      400,
    );
    expect(other.detail).toBe('line_item_id names a line item of another class_id.');
    expect((await results()).length).toBe(before);
  });

  it('refuse a result whose student leaves the class between the check and the write (400), writing nothing', async () => {
    const { classId, project } = await sharedClassItems();
    const student = await createRecord(api, 'students', personBody('R'));
    const enrollment = await createRecord(api, 'enrollments', {
      class_id: classId,
      entity_id: student.entity_id,
      role: 'student',
      primary: false,
      begin_date: null,
      end_date: null,
    });
    const body = graded(classId, project.line_item_id as string, student.student_id as string);
    // The check finds the student enrolled; the enrollment is deleted before the result is written.
    const conditions = await refuseStudentNotInClass('results', body, api.records);
    expect((await api.send('DELETE', `/api/enrollments/${enrollment.enrollment_id}`)).status).toBe(204);
    const writer = new RecordWriter(api.db, api.tableName, api.records);
    const refused = writer.create('results', resultInsertRequest().parse(body), () => conditions);
    await expect(refused).rejects.toThrow(InvalidInputError);
    await expect(refused).rejects.toMatchObject({
      problems: [
        {
          name: 'student_id',
          in: 'body',
          reason: `student ${student.student_id} is not enrolled in class ${classId}`,
        },
      ],
    });
    expect((await results()).filter((r) => r.student_id === student.student_id)).toEqual([]);
  });

  it("refuse a line item's results whole when one student leaves the class between the check and the write (400), writing nothing", async () => {
    const { classId, project } = await sharedClassItems();
    const [leaving, staying] = await Promise.all(
      ['L', 'S'].map((tag) => createRecord(api, 'students', personBody(tag))),
    );
    const enrollments = await Promise.all(
      [leaving, staying].map((student) =>
        createRecord(api, 'enrollments', {
          class_id: classId,
          entity_id: student?.entity_id,
          role: 'student',
          primary: false,
          begin_date: null,
          end_date: null,
        }),
      ),
    );
    const students = [leaving, staying].map((s) => s?.student_id as string);
    const name = (index: number) => `results[${index}].student_id`;
    // As a bulk entry checks its students (bulk-entry.ts); then the first one's enrollment is deleted.
    const entityOf = await api.records.entityIdsOf('students', students);
    const lists = await refuseStudentsNotInClass(api.records, classId, students, entityOf, name);
    const held = students.map((studentId, index) => ({
      studentId,
      entityId: entityOf.get(studentId) as string,
      name: name(index),
    }));
    const checks = classStillEnrolls(api.tableName, classId, held, lists);
    expect((await api.send('DELETE', `/api/enrollments/${enrollments[0]?.enrollment_id}`)).status).toBe(204);
    const writer = new RecordWriter(api.db, api.tableName, api.records);
    const inputs = students.map((studentId) =>
      resultInsertRequest().parse(graded(classId, project.line_item_id as string, studentId)),
    );
    const refused = writer.putByNaturalKey('results', inputs, checks);
    await expect(refused).rejects.toThrow(InvalidInputError);
    await expect(refused).rejects.toMatchObject({
      problems: [
        {
          name: 'results[0].student_id',
          in: 'body',
          reason: `student ${students[0]} is not enrolled in class ${classId}`,
        },
      ],
    });
    expect((await results()).filter((r) => students.includes(r.student_id as string))).toEqual([]);
    // Held as the entry commits, the class's students write as before.
    const written = await writer.putByNaturalKey(
      'results',
      inputs.slice(1),
      classStillEnrolls(api.tableName, classId, held.slice(1), lists),
    );
    expect(written.map((w) => w.record.student_id)).toEqual([students[1]]);
  });
});

describe('who reads results (deliverable 2)', () => {
  it("a teacher: every result of the classes they teach, released or not, and no other class's (404)", async () => {
    const { classId, project, studentId } = await sharedClassItems();
    const made = await json<Row>(
      await api.send('POST', '/api/results', graded(classId, project.line_item_id as string, studentId)),
      201,
    );
    const [all, taught] = await Promise.all([results(), classesOf('teacher', 'teacher')]);
    const expected = all.filter((r) => taught.has(r.class_id as string));
    expect(idsOf(expected)).toContain(made.result_id);
    expect(idsOf(await results('teacher'))).toEqual(idsOf(expected));
    const token = await tokenOf('teacher');
    const outside = all.find((r) => !taught.has(r.class_id as string)) as Row;
    await expectProblem(await api.get(`/api/results/${outside.result_id}`, { token }), 404);
    expect(await json<Row>(await api.get(`/api/results/${made.result_id}`, { token }))).toEqual(made);
    expect((await api.send('DELETE', `/api/results/${made.result_id}`)).status).toBe(204);
  });

  it("a student: their own results of released line items; a guardian: their children's; others answer 404", async () => {
    const items = await lineItemsById();
    const all = await results();
    for (const [username, through] of [
      ['student', 'student'],
      ['guardian', 'tutor'],
    ] as const) {
      const students = await studentsOf(username, through);
      const expected = all.filter(
        (r) => students.has(r.student_id as string) && items.get(r.line_item_id as string)?.released,
      );
      expect(expected.length, username).toBeGreaterThan(0);
      expect(idsOf(await results(username)), username).toEqual(idsOf(expected));
      const token = await tokenOf(username);
      const other = all.find((r) => !students.has(r.student_id as string)) as Row;
      await expectProblem(await api.get(`/api/results/${other.result_id}`, { token }), 404);
    }
  });

  it('a student sees a result once its line item is released, in their changes feed too', async () => {
    const { classId, project, studentId } = await sharedClassItems();
    const result = await json<Row>(
      await api.send('POST', '/api/results', graded(classId, project.line_item_id as string, studentId)),
      201,
    );
    const token = await tokenOf('student');
    const path = `/api/results/${result.result_id}`;
    await expectProblem(await api.get(path, { token }), 404);
    expect(idsOf(await results('student'))).not.toContain(result.result_id);
    const since = new Date(Date.now() - 1_000).toISOString();
    const { line_item_id, created_at, updated_at, ...item } = project;
    await json<Row>(await api.send('PUT', `/api/line_items/${line_item_id}`, { ...item, released: true }));
    expect(await json<Row>(await api.get(path, { token }))).toEqual(result);
    await api.send('PUT', path, { ...graded(classId, line_item_id as string, studentId), score: 18 });
    await waitForSyncLag();
    const changes = await json<Row>(await api.get(`/api/results?updated_since=${since}`, { token }));
    expect((changes.results as Row[]).map((r) => r.result_id)).toContain(result.result_id);
  });

  it('staff read every result', async () => {
    expect(idsOf(await results('staff'))).toEqual(idsOf(await results()));
  });

  it('a client: by the gradebook scopes; registered with schools, the results of their classes', async () => {
    const all = await results();
    const classes = (await json<Row>(await api.get('/api/classes?items_per_page=500'))).classes as Row[];
    const school = classes[0]?.school_id as string;
    const schoolClasses = new Set(classes.filter((c) => c.school_id === school).map((c) => c.class_id));
    const { token } = await registeredClient(api, {
      name: 'One school results',
      scopes: ['gradebook:read'],
      schools: [school],
    });
    const page = await json<Row>(await api.get('/api/results?items_per_page=500', { token }));
    const expected = all.filter((r) => schoolClasses.has(r.class_id));
    expect(expected.length).toBeGreaterThan(0);
    expect(idsOf(page.results as Row[])).toEqual(idsOf(expected).slice(0, 500));
    const outside = all.find((r) => !schoolClasses.has(r.class_id)) as Row;
    await expectProblem(await api.get(`/api/results/${outside.result_id}`, { token }), 404);
    const rosterOnly = await registeredClient(api, { name: 'Roster only', scopes: ['students:read'] });
    await expectProblem(await api.get('/api/results', { token: rosterOnly.token }), 403);
  });
});

describe('who writes results (deliverable 2)', () => {
  it('a teacher: the results of the classes they teach, which the student reads only once the line item is released', async () => {
    const { classId, test, studentId } = await sharedClassItems();
    const token = await tokenOf('teacher');
    const mine = (await results()).find(
      (r) => r.line_item_id === test.line_item_id && r.student_id === studentId,
    ) as Row;
    const { result_id, created_at, updated_at, ...body } = mine;
    const path = `/api/results/${result_id}`;
    const regraded = await json<Row>(
      await api.send('PUT', path, { ...body, score: 91, comment: 'Revisto.' }, { token }),
    );
    expect(regraded).toMatchObject({ score: 91, comment: 'Revisto.' });
    expect(await json<Row>(await api.get(path, { token: await tokenOf('student') }))).toEqual(regraded);
    const { line_item_id, created_at: made_at, updated_at: changed_at, ...item } = test;
    const quiz = await json<Row>(
      await api.send(
        'POST',
        '/api/line_items',
        { ...item, title: 'Questão-aula', released: false },
        { token },
      ),
      201,
    );
    const made = await json<Row>(
      await api.send('POST', '/api/results', graded(classId, quiz.line_item_id as string, studentId), {
        token,
      }),
      201,
    );
    const student = await tokenOf('student');
    await expectProblem(await api.get(`/api/results/${made.result_id}`, { token: student }), 404);
    expect((await api.send('DELETE', `/api/results/${made.result_id}`, undefined, { token })).status).toBe(
      204,
    );
    expect(
      (await api.send('DELETE', `/api/line_items/${quiz.line_item_id}`, undefined, { token })).status,
    ).toBe(204);
  });

  it("refuses a teacher another class's results (403 to make, 404 to change) and a student any (403), writing nothing", async () => {
    const token = await tokenOf('teacher');
    const taught = await classesOf('teacher', 'teacher');
    const all = await results();
    const theirs = all.find((r) => !taught.has(r.class_id as string)) as Row;
    const { result_id, created_at, updated_at, ...body } = theirs;
    const made = await expectProblem(await api.send('POST', '/api/results', body, { token }), 403);
    expect(made.type).toBe('urn:problem:school-api:outside-reach');
    expect(made.errors).toEqual([{ name: 'class_id', in: 'body', reason: 'is not a class you teach' }]);
    const path = `/api/results/${result_id}`;
    await expectProblem(await api.send('PUT', path, { ...body, score: 100 }, { token }), 404);
    await expectProblem(await api.send('DELETE', path, undefined, { token }), 404);
    const own = (await results('student'))[0] as Row;
    const { result_id: ownId, created_at: c, updated_at: u, ...ownBody } = own;
    for (const username of ['student', 'guardian', 'staff']) {
      const person = await tokenOf(username);
      await expectProblem(
        await api.send('PUT', `/api/results/${ownId}`, { ...ownBody, score: 100 }, { token: person }),
        403,
      );
    }
    expect(await results()).toEqual(all);
  });
});

describe("a line item's results graded together (deliverable 4)", () => {
  it('a teacher grades its students in one request: every result made, then replaced when sent again, in one audit event naming every student', async () => {
    const { classId, project, studentId } = await sharedClassItems();
    const token = await tokenOf('teacher');
    const students = (await studentsOfClass(classId)).slice(0, LIMITS.bulkEntries);
    expect(students).toContain(studentId);
    const grades = students.map((id, i) => ({
      student_id: id,
      status: 'fully graded',
      score: 10 + (i % 10),
      score_date: '2026-10-26',
    }));
    const path = `/api/line_items/${project.line_item_id}/results`;
    const first = await api.send('PUT', path, { results: grades }, { token });
    const graded = await json<Row>(first);
    const written = graded.results as Row[];
    expect(graded).toMatchObject({ line_item_id: project.line_item_id, class_id: classId });
    expect(written.map((r) => [r.student_id, r.score, r.class_id, r.line_item_id])).toEqual(
      grades.map((g) => [g.student_id, g.score, classId, project.line_item_id]),
    );
    const [event, ...more] = await auditEventsOf(first);
    expect(more).toEqual([]);
    expect(event).toMatchObject({ route: 'put-line-item-results', group: 'students', outcome: 200 });
    expect([...(event?.record_ids ?? [])].sort()).toEqual([...students].sort());

    const before = (await results()).length;
    const regraded = grades.map((g) =>
      g.student_id === studentId ? { ...g, score: 19.5, comment: 'Revisto.' } : g,
    );
    const again = await json<Row>(await api.send('PUT', path, { results: regraded }, { token }));
    const rewritten = again.results as Row[];
    expect(rewritten.map((r) => r.result_id)).toEqual(written.map((r) => r.result_id));
    expect(rewritten.find((r) => r.student_id === studentId)).toMatchObject({
      score: 19.5,
      comment: 'Revisto.',
    });
    expect((await results()).length).toBe(before);
    // The student reads their own as graded, once the line item is released (a test above releases it).
    const mine = rewritten.find((r) => r.student_id === studentId) as Row;
    await json<Row>(
      await api.send('PUT', `/api/line_items/${project.line_item_id}`, {
        ...Object.fromEntries(
          Object.entries(project).filter(([k]) => !['line_item_id', 'created_at', 'updated_at'].includes(k)),
        ),
        released: true,
      }),
    );
    expect(
      await json<Row>(await api.get(`/api/results/${mine.result_id}`, { token: await tokenOf('student') })),
    ).toEqual(mine);
    for (const r of rewritten) await api.send('DELETE', `/api/results/${r.result_id}`);
  });

  it('is refused whole, writing nothing: a bad grade or student, a student twice, too many, a missing line item, or one of a class the teacher does not teach', async () => {
    const { project, studentId } = await sharedClassItems();
    const token = await tokenOf('teacher');
    const before = await results();
    const path = `/api/line_items/${project.line_item_id}/results`;
    const good = { student_id: studentId, status: 'submitted', score_date: '2026-10-26' };
    const missing = '00000000-0000-4000-8000-000000000000';
    const refused: [unknown, string][] = [
      [{ results: [] }, 'results'],
      [{ results: [good, good] }, 'results'],
      [{ results: [good, { ...good, student_id: missing }] }, 'results[1].student_id'],
      [{ results: [good, { ...good, student_id: randomUUID(), status: 'graded' }] }, 'results[1].status'],
      [{ results: [{ ...good, score: '16' }] }, 'results[0].score'],
      [{ results: [{ ...good, line_item_id: missing }] }, 'results[0].line_item_id'],
      [{ results: Array.from({ length: LIMITS.bulkEntries + 1 }, () => good) }, 'results'],
      [{ grades: [good] }, 'grades'],
    ];
    for (const [body, field] of refused) {
      const problem = await expectProblem(await api.send('PUT', path, body, { token }), 400);
      expect(problem.errors, JSON.stringify(body)).toContainEqual(expect.objectContaining({ name: field }));
    }
    await expectProblem(
      await api.send('PUT', `/api/line_items/${missing}/results`, { results: [good] }),
      404,
    );
    await expectProblem(await api.send('PUT', '/api/line_items/quiz-1/results', { results: [good] }), 400);
    const taught = await classesOf('teacher', 'teacher');
    const elsewhere = [...(await lineItemsById()).values()].find(
      (i) => !taught.has(i.class_id as string),
    ) as Row;
    await expectProblem(
      await api.send(
        'PUT',
        `/api/line_items/${elsewhere.line_item_id}/results`,
        { results: [good] },
        { token },
      ),
      403,
    );
    await expectProblem(
      await api.send('PUT', path, { results: [good] }, { token: await tokenOf('student') }),
      403,
    );
    expect(await results()).toEqual(before);
  });
});

describe("a student's grades (deliverable 5)", () => {
  /** What the rule gives for the results of a student that a reader reads, from the administrator's reads. */
  async function expectedGrades(studentId: string, readable: (result: Row) => boolean) {
    const [all, items, scales, categories] = await Promise.all([
      results(),
      lineItemsById(),
      json<Row>(await api.get('/api/score_scales?items_per_page=500')),
      json<Row>(await api.get('/api/categories?items_per_page=500')),
    ]);
    const byId = (rows: Row[], field: string) => new Map(rows.map((row) => [row[field] as string, row]));
    return periodGrades(
      all.filter((r) => r.student_id === studentId && readable(r)) as never,
      items as never,
      byId(scales.score_scales as Row[], 'score_scale_id') as never,
      byId(categories.categories as Row[], 'category_id') as never,
    );
  }

  it('are the weighted averages of their results per class and grading period, as each reader may read them', async () => {
    const { studentId } = await sharedClassItems();
    const path = `/api/students/${studentId}/grades`;
    const asAdmin = await json<Row>(await api.get(path));
    expect(asAdmin).toEqual({ student_id: studentId, grades: await expectedGrades(studentId, () => true) });
    expect((asAdmin.grades as Row[]).length).toBeGreaterThan(0);

    const items = await lineItemsById();
    const released = (r: Row) => items.get(r.line_item_id as string)?.released === true;
    const asStudent = await json<Row>(await api.get(path, { token: await tokenOf('student') }));
    expect(asStudent.grades).toEqual(await expectedGrades(studentId, released));

    const taught = await classesOf('teacher', 'teacher');
    const asTeacher = await json<Row>(await api.get(path, { token: await tokenOf('teacher') }));
    expect(asTeacher.grades).toEqual(
      await expectedGrades(studentId, (r) => taught.has(r.class_id as string)),
    );

    // Another family's guardian reads nothing of them.
    expect(await studentsOf('guardian2', 'tutor')).not.toContain(studentId);
    await expectProblem(await api.get(path, { token: await tokenOf('guardian2') }), 404);
    await expectProblem(await api.get(`/api/students/${randomUUID()}/grades`), 404);
    await expectProblem(await api.get('/api/students/nobody/grades'), 400);
  });
});
