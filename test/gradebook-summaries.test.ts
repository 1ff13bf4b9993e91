// The gradebook's summaries over HTTP (issue "Grades and attendance", deliverable 5): a line item's score
// distribution and a student's attendance rates, read from tallies kept on write (docs/api.md,
// "Summaries"). Each is checked against what the records themselves say, after the demo's seed and after
// writes of every kind (one at a time, in parallel, in bulk, replaced, deleted); and against who may read
// it: the distribution those who read every result of the line item, the attendance as the reader reads
// the student's attendance.
import { randomUUID } from 'node:crypto';
import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { percentOf } from '../shared/domain/grade-average';
import { LIMITS } from '../shared/domain/limits';
import { AttendanceSummary, LineItemDistribution } from '../shared/schemas/records';
import { runAdminOn } from './support/admin-run';
import { expectProblem, json } from './support/contract';
import { demoPeople } from './support/demo-people';
import { registeredClient } from './support/oauth';
import { startTestApi, type TestApi } from './support/test-api';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.stop());

type Row = Record<string, unknown>;

const { tokenOf, classesOf, studentsOfClass, sharedClass } = demoPeople(() => api);

/** Every record of a group the administrator's own token reads, page by page. */
async function walk(group: 'results' | 'line_items' | 'attendance' | 'classes'): Promise<Row[]> {
  const rows: Row[] = [];
  let next: string | undefined = `/api/${group}?items_per_page=500`;
  while (next) {
    const page: Row = await json<Row>(await api.get(next));
    rows.push(...(page[group] as Row[]));
    next = page.next_cursor ? `/api/${group}?items_per_page=500&cursor=${page.next_cursor}` : undefined;
  }
  return rows;
}

const distributionOf = async (lineItemId: unknown, token?: string) =>
  json<Row>(await api.get(`/api/line_items/${lineItemId}/distribution`, token ? { token } : {}));

const summaryOf = async (studentId: unknown, token?: string) =>
  json<Row>(await api.get(`/api/students/${studentId}/attendance_summary`, token ? { token } : {}));

/** What a line item's distribution must say, worked out from its results as the records hold them. */
async function expectedDistribution(item: Row, all?: readonly Row[]) {
  const results = (all ?? (await walk('results'))).filter((r) => r.line_item_id === item.line_item_id);
  const scale = item.score_scale_id
    ? await json<Row>(await api.get(`/api/score_scales/${item.score_scale_id}`))
    : undefined;
  const statuses = Object.fromEntries(
    ['not submitted', 'submitted', 'partially graded', 'fully graded', 'exempt'].map((s) => [
      s,
      results.filter((r) => r.status === s).length,
    ]),
  );
  const tally = (field: 'score' | 'text_score') => {
    const counts = new Map<unknown, number>();
    for (const r of results)
      if (r.status !== 'exempt' && r[field] !== null) counts.set(r[field], (counts.get(r[field]) ?? 0) + 1);
    return counts;
  };
  const scores = [...tally('score')]
    .map(([score, count]) => ({ score, count }))
    .sort((a, b) => Number(a.score) - Number(b.score));
  const percents = results
    .filter((r) => r.status !== 'exempt')
    .map((r) =>
      percentOf(
        scale?.type === 'letter'
          ? { status: 'fully graded', score: null, text_score: r.text_score as string | null }
          : { status: 'fully graded', score: r.score as number | null, text_score: null },
        item as never,
        scale as never,
      ),
    )
    .filter((p): p is number => p !== undefined);
  return {
    results: results.length,
    statuses,
    scores,
    counted: percents.length,
    average:
      percents.length === 0
        ? null
        : Math.round((percents.reduce((a, b) => a + b, 0) / percents.length) * 10) / 10,
    bandCounts: Array.from(
      { length: 10 },
      (_, i) => percents.filter((p) => Math.min(9, Math.floor(p / 10)) === i).length,
    ),
  };
}

function expectDistribution(actual: Row, expected: Awaited<ReturnType<typeof expectedDistribution>>) {
  expect(LineItemDistribution.safeParse(actual).error).toBeUndefined();
  const percentages = actual.percentages as { counted: number; average: number | null; bands: Row[] };
  expect({
    results: actual.results,
    statuses: actual.statuses,
    scores: actual.scores,
    counted: percentages.counted,
    bandCounts: percentages.bands.map((b) => b.count),
  }).toEqual({
    results: expected.results,
    statuses: expected.statuses,
    scores: expected.scores,
    counted: expected.counted,
    bandCounts: expected.bandCounts,
  });
  if (expected.average === null) expect(percentages.average).toBeNull();
  else expect(percentages.average).toBeCloseTo(expected.average, 0);
}

type Marks = { present: number; absent: number; tardy: number; excused: number };
const rateOf = (m: Marks) => {
  const counted = m.present + m.tardy + m.absent;
  return counted === 0 ? null : Math.round(((m.present + m.tardy) / counted) * 1000) / 10;
};

/** What a student's attendance summary must say, read in full, from their attendance records. */
async function expectedSummary(studentId: string) {
  const [marks, classes] = await Promise.all([walk('attendance'), walk('classes')]);
  const mine = marks.filter((m) => m.student_id === studentId);
  const count = (rows: readonly Row[]): Marks => ({
    present: rows.filter((r) => r.status === 'present').length,
    absent: rows.filter((r) => r.status === 'absent').length,
    tardy: rows.filter((r) => r.status === 'tardy').length,
    excused: rows.filter((r) => r.status === 'excused').length,
  });
  const classIds = [
    ...new Set(mine.flatMap((m) => (m.class_id === null ? [] : [m.class_id as string]))),
  ].sort();
  const termsOf = (classId: string) =>
    (classes.find((c) => c.class_id === classId)?.term_ids as string[] | undefined) ?? [];
  const termIds = [...new Set(classIds.flatMap(termsOf))].sort();
  const months = [
    ...new Set(mine.filter((m) => m.class_id === null).map((m) => String(m.date).slice(0, 7))),
  ].sort();
  const rated = (rows: readonly Row[]) => {
    const m = count(rows);
    return { marks: m, rate: rateOf(m) };
  };
  return {
    student_id: studentId,
    classes: classIds.map((classId) => ({
      class_id: classId,
      term_ids: termsOf(classId),
      ...rated(mine.filter((m) => m.class_id === classId)),
    })),
    terms: termIds.map((termId) => ({
      term_id: termId,
      ...rated(mine.filter((m) => m.class_id !== null && termsOf(m.class_id as string).includes(termId))),
    })),
    days: months.map((month) => ({
      month,
      ...rated(mine.filter((m) => m.class_id === null && String(m.date).startsWith(month))),
    })),
  };
}

/** The counts a line item's or student's item keeps (tallies.ts), as stored. */
async function storedTally(group: 'line_items' | 'students', id: unknown): Promise<Record<string, unknown>> {
  const { Item = {} } = await api.db.send(
    new GetCommand({ TableName: api.tableName, Key: { pk: `REC#${group}`, sk: String(id) } }),
  );
  return Object.fromEntries(Object.entries(Item).filter(([name]) => name.startsWith('_tally#')));
}

/** The class the demo teacher teaches the demo student (demo-people.ts), with its students. */
async function sharedClassAndStudents() {
  const shared = await sharedClass();
  return { ...shared, students: await studentsOfClass(shared.classId) };
}

/** A new line item of a class, out of 20 points, like the demo's first test of `like` (the class itself). */
async function newLineItem(classId: string, like = classId): Promise<Row> {
  const items = await walk('line_items');
  const model: Row = { ...(items.find((i) => i.class_id === like) as Row), class_id: classId };
  const { line_item_id: _, created_at: __, updated_at: ___, ...body } = model;
  return json<Row>(
    await api.send('POST', '/api/line_items', {
      ...body,
      title: `Mini-teste ${randomUUID().slice(0, 6)}`,
      score_scale_id: null,
      result_value_min: 0,
      result_value_max: 20,
    }),
    201,
  );
}

describe('the demo tenant (deliverable 6)', () => {
  it("each line item's distribution is what its results say", async () => {
    const [items, results] = await Promise.all([walk('line_items'), walk('results')]);
    expect(items.length).toBeGreaterThan(0);
    for (const item of items) {
      expectDistribution(await distributionOf(item.line_item_id), await expectedDistribution(item, results));
    }
  });

  it("each student's attendance summary is what their marks say", async () => {
    const marks = await walk('attendance');
    const students = [...new Set(marks.map((m) => m.student_id as string))].slice(0, 10);
    expect(students.length).toBeGreaterThan(0);
    for (const studentId of students) {
      const summary = await summaryOf(studentId);
      expect(AttendanceSummary.safeParse(summary).error).toBeUndefined();
      expect(summary).toEqual(await expectedSummary(studentId));
    }
  });
});

describe('tallies kept on write', () => {
  it('a distribution follows results made at once, replaced, graded in bulk and deleted', async () => {
    const { classId, students } = await sharedClassAndStudents();
    const item = await newLineItem(classId);
    expect(await distributionOf(item.line_item_id)).toMatchObject({ results: 0, scores: [] });
    const some = students.slice(0, Math.min(students.length, 20));
    const made = await Promise.all(
      some.map(async (studentId, i) =>
        json<Row>(
          await api.send('POST', '/api/results', {
            class_id: classId,
            line_item_id: item.line_item_id,
            student_id: studentId,
            status: 'fully graded',
            score: i % 2 === 0 ? 20 : 7.5,
            score_date: '2026-11-02',
          }),
          201,
        ),
      ),
    );
    expectDistribution(await distributionOf(item.line_item_id), await expectedDistribution(item));
    expect(await distributionOf(item.line_item_id)).toMatchObject({
      results: some.length,
      scores: [
        { score: 7.5, count: Math.floor(some.length / 2) },
        { score: 20, count: Math.ceil(some.length / 2) },
      ],
    });
    // Replaced: exempt results count by status only.
    const [first, second] = made as [Row, Row];
    const { result_id: firstId, created_at: _, updated_at: __, ...firstBody } = first;
    await json<Row>(
      await api.send('PUT', `/api/results/${firstId}`, { ...firstBody, status: 'exempt', score: null }),
    );
    // Deleted: it counts no more.
    expect((await api.send('DELETE', `/api/results/${second.result_id}`)).status).toBe(204);
    expectDistribution(await distributionOf(item.line_item_id), await expectedDistribution(item));
    // Graded in bulk, each student's result replaced or made in one transaction: one update of the tally.
    const bulk = students.slice(0, LIMITS.bulkEntries).map((studentId, i) => ({
      student_id: studentId,
      status: i % 3 === 0 ? 'submitted' : 'fully graded',
      score: i % 3 === 0 ? null : 10 + (i % 4),
      score_date: '2026-11-03',
    }));
    await json<Row>(await api.send('PUT', `/api/line_items/${item.line_item_id}/results`, { results: bulk }));
    const after = await distributionOf(item.line_item_id);
    expectDistribution(after, await expectedDistribution(item));
    expect(after.results).toBe(bulk.length);
    // A count that fell to zero is taken off the line item: its item holds only what results hold now.
    expect(
      Object.values(await storedTally('line_items', item.line_item_id)).every((n) => Number(n) > 0),
    ).toBe(true);
  });

  it('an attendance summary follows marks of classes and of whole days, made, replaced and deleted', async () => {
    const { classId, studentId, students } = await sharedClassAndStudents();
    const before = await summaryOf(studentId);
    const register = (status: string) => ({
      marks: students.slice(0, LIMITS.bulkEntries).map((id) => ({ student_id: id, status })),
    });
    const path = `/api/classes/${classId}/attendance/2026-12-01`;
    await json<Row>(await api.send('PUT', path, register('absent')));
    // Sent again with other marks: each replaces the one it finds, and the tally moves with it.
    await json<Row>(await api.send('PUT', path, register('excused')));
    const day = await json<Row>(
      await api.send('POST', '/api/attendance', {
        class_id: null,
        student_id: studentId,
        date: '2026-12-02',
        status: 'absent',
      }),
      201,
    );
    const after = await summaryOf(studentId);
    expect(after).toEqual(await expectedSummary(studentId));
    const marksOf = (summary: Row) =>
      ((summary.classes as Row[]).find((c) => c.class_id === classId) as { marks: Marks }).marks;
    expect(marksOf(after)).toEqual({ ...marksOf(before), excused: marksOf(before).excused + 1 });
    expect(after.days).toContainEqual({
      month: '2026-12',
      marks: { present: 0, absent: 1, tardy: 0, excused: 0 },
      rate: 0,
    });
    expect((await api.send('DELETE', `/api/attendance/${day.attendance_id}`)).status).toBe(204);
    const deleted = await summaryOf(studentId);
    expect(deleted).toEqual(await expectedSummary(studentId));
    expect((deleted.days as Row[]).some((d) => d.month === '2026-12')).toBe(false);
  });
});

describe('what a result holds', () => {
  it('counts any letter as it is, separators and control characters included, and takes it away on delete', async () => {
    const { classId, studentId } = await sharedClassAndStudents();
    const item = await newLineItem(classId);
    const odd = ['B#2', 'A\u0000999', 'x\u0000y'];
    const made = [];
    for (const [i, studentIdOf] of [
      studentId,
      ...(await studentsOfClass(classId)).filter((s) => s !== studentId),
    ]
      .slice(0, odd.length)
      .entries()) {
      made.push(
        await json<Row>(
          await api.send('POST', '/api/results', {
            class_id: classId,
            line_item_id: item.line_item_id,
            student_id: studentIdOf,
            status: 'submitted',
            text_score: odd[i],
            score_date: '2026-11-05',
          }),
          201,
        ),
      );
    }
    expect((await distributionOf(item.line_item_id)).text_scores).toEqual(
      [...odd].sort().map((text_score) => ({ text_score, count: 1 })),
    );
    for (const result of made) {
      expect((await api.send('DELETE', `/api/results/${result.result_id}`)).status).toBe(204);
    }
    expect(await distributionOf(item.line_item_id)).toMatchObject({ results: 0, text_scores: [] });
    expect(await storedTally('line_items', item.line_item_id)).toEqual({});
  });

  it('keeps no count of a value no result holds any more, however often it is regraded', async () => {
    const { classId, students } = await sharedClassAndStudents();
    const item = await newLineItem(classId);
    const some = students.slice(0, 5);
    for (let round = 0; round < 6; round++) {
      const results = some.map((studentId, i) => ({
        student_id: studentId,
        status: 'fully graded',
        score: round * 1.25 + i / 4,
        text_score: `R${round}`,
        score_date: '2026-11-06',
      }));
      await json<Row>(await api.send('PUT', `/api/line_items/${item.line_item_id}/results`, { results }));
    }
    const stored = await storedTally('line_items', item.line_item_id);
    expect(Object.keys(stored).sort()).toEqual(
      [
        '_tally#status#fully graded',
        '_tally#text#R5',
        ...some.map((_, i) => `_tally#score#${5 * 1.25 + i / 4}`),
      ].sort(),
    );
  });
});

describe('a full bulk entry (LIMITS.bulkEntries)', () => {
  it("takes a register and a line item's results of that many new records in one transaction each, their tallies with them", async () => {
    const { classId } = await sharedClassAndStudents();
    const model = await json<Row>(await api.get(`/api/classes/${classId}`));
    const { class_id: _, created_at: __, updated_at: ___, ...classBody } = model;
    const made = await json<Row>(
      await api.send('POST', '/api/classes', { ...classBody, title: 'Turma cheia', class_code: 'FULL' }),
      201,
    );
    const students = (
      (await json<Row>(await api.get('/api/students?items_per_page=500'))).students as Row[]
    ).slice(0, LIMITS.bulkEntries);
    expect(students).toHaveLength(LIMITS.bulkEntries);
    for (const student of students) {
      await json<Row>(
        await api.send('POST', '/api/enrollments', {
          class_id: made.class_id,
          entity_id: student.entity_id,
          role: 'student',
          primary: false,
          begin_date: null,
          end_date: null,
        }),
        201,
      );
    }
    const marks = students.map((s, i) => ({
      student_id: s.student_id,
      status: i % 4 === 0 ? 'absent' : 'present',
    }));
    await json<Row>(await api.send('PUT', `/api/classes/${made.class_id}/attendance/2026-12-07`, { marks }));
    const item = await newLineItem(made.class_id as string, classId);
    const results = students.map((s, i) => ({
      student_id: s.student_id,
      status: 'fully graded',
      score: i % 21,
      score_date: '2026-12-07',
    }));
    await json<Row>(await api.send('PUT', `/api/line_items/${item.line_item_id}/results`, { results }));
    expect(await distributionOf(item.line_item_id)).toMatchObject({ results: LIMITS.bulkEntries });
    const [first] = students as [Row];
    const summary = await summaryOf(first.student_id);
    expect((summary.classes as Row[]).find((c) => c.class_id === made.class_id)).toMatchObject({
      marks: { present: 0, absent: 1, tardy: 0, excused: 0 },
      rate: 0,
    });
    expect(summary).toEqual(await expectedSummary(first.student_id as string));
  });
});

describe('who reads the summaries (deliverable 2)', () => {
  it("a line item's distribution: its class's teacher and staff; not there for its students nor their guardians", async () => {
    const { classId } = await sharedClassAndStudents();
    const item = (await walk('line_items')).find((i) => i.class_id === classId && i.released) as Row;
    expect(item, 'a released line item of the shared class').toBeDefined();
    const expected = await distributionOf(item.line_item_id);
    for (const username of ['teacher', 'staff', 'admin']) {
      expect(await distributionOf(item.line_item_id, await tokenOf(username))).toEqual(expected);
    }
    for (const username of ['student', 'guardian']) {
      const response = await api.get(`/api/line_items/${item.line_item_id}/distribution`, {
        token: await tokenOf(username),
      });
      const problem = await expectProblem(response, 404);
      expect(problem.detail).toMatch(/read by those who read all its results/);
    }
  });

  it("a student's attendance: all of it for the student and their guardian, a teacher only its classes", async () => {
    const { classId, studentId } = await sharedClassAndStudents();
    await json<Row>(
      await api.send('POST', '/api/attendance', {
        class_id: null,
        student_id: studentId,
        date: '2026-12-03',
        status: 'present',
      }),
      201,
    );
    const whole = await summaryOf(studentId);
    expect((whole.days as Row[]).length).toBeGreaterThan(0);
    for (const username of ['student', 'guardian']) {
      expect(await summaryOf(studentId, await tokenOf(username))).toEqual(whole);
    }
    // Staff read no student, so no student's summary, as with their grades.
    const staff = { token: await tokenOf('staff') };
    await expectProblem(await api.get(`/api/students/${studentId}/attendance_summary`, staff), 404);
    await expectProblem(await api.get(`/api/students/${studentId}/grades`, staff), 404);
    const taught = await classesOf('teacher', 'teacher');
    const asTeacher = await summaryOf(studentId, await tokenOf('teacher'));
    expect(asTeacher.days).toEqual([]);
    expect((asTeacher.classes as Row[]).map((c) => c.class_id)).toEqual(
      (whole.classes as Row[]).map((c) => c.class_id).filter((id) => taught.has(id as string)),
    );
    expect((asTeacher.classes as Row[]).map((c) => c.class_id)).toContain(classId);
    // A client registered with the class's school: that school's classes, and no whole day, which no school holds.
    const school = (await json<Row>(await api.get(`/api/classes/${classId}`))).school_id as string;
    const { token } = await registeredClient(api, {
      name: 'One school summaries',
      scopes: ['attendance:read', 'students:read'],
      schools: [school],
    });
    const asSchool = await summaryOf(studentId, token);
    expect(asSchool.days).toEqual([]);
    const classes = await walk('classes');
    expect((asSchool.classes as Row[]).map((c) => c.class_id)).toEqual(
      (whole.classes as Row[])
        .map((c) => c.class_id)
        .filter((id) => classes.find((c) => c.class_id === id)?.school_id === school),
    );
  });
});

describe('bad input (contract.md section 4)', () => {
  it('answers 400 for an id that is no UUID and 404 for one of nothing', async () => {
    await expectProblem(await api.get('/api/line_items/not-a-uuid/distribution'), 400);
    await expectProblem(await api.get('/api/students/not-a-uuid/attendance_summary'), 400);
    await expectProblem(await api.get(`/api/line_items/${randomUUID()}/distribution`), 404);
    await expectProblem(await api.get(`/api/students/${randomUUID()}/attendance_summary`), 404);
  });
});

describe('records tally-again (docs/deploy.md)', () => {
  /** Takes every tally off the line items and students that keep them, as a table from before them has none. */
  async function dropTallies() {
    for (const pk of ['REC#line_items', 'REC#students']) {
      const { Items = [] } = await api.db.send(
        new QueryCommand({
          TableName: api.tableName,
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': pk },
        }),
      );
      for (const item of Items) {
        const names = Object.keys(item).filter((name) => name.startsWith('_tally#'));
        if (names.length === 0) continue;
        await api.db.send(
          new UpdateCommand({
            TableName: api.tableName,
            Key: { pk: item.pk, sk: item.sk },
            UpdateExpression: `REMOVE ${names.map((_, i) => `#t${i}`).join(', ')}`,
            ExpressionAttributeNames: Object.fromEntries(names.map((name, i) => [`#t${i}`, name])),
          }),
        );
      }
    }
  }

  it('counts the tallies of a table from before them again, while results are being written', async () => {
    const { classId, studentId, students } = await sharedClassAndStudents();
    const item = await newLineItem(classId);
    await dropTallies();
    // A line item left with more stale counts than one update expression holds.
    const stale = Array.from({ length: 250 }, (_, i) => `_tally#score#${1000 + i}`);
    await api.db.send(
      new UpdateCommand({
        TableName: api.tableName,
        Key: { pk: 'REC#line_items', sk: item.line_item_id as string },
        UpdateExpression: `SET ${stale.map((_, i) => `#s${i} = :zero`).join(', ')}`,
        ExpressionAttributeNames: Object.fromEntries(stale.map((name, i) => [`#s${i}`, name])),
        ExpressionAttributeValues: { ':zero': 0 },
      }),
    );
    expect(await distributionOf(item.line_item_id)).toMatchObject({ results: 0 });
    // Results are written while it counts: each is counted once, by the write or by the recount.
    const writing = Promise.all(
      students.slice(0, 12).map(async (id, i) =>
        json<Row>(
          await api.send('POST', '/api/results', {
            class_id: classId,
            line_item_id: item.line_item_id,
            student_id: id,
            status: 'fully graded',
            score: 8 + i,
            score_date: '2026-11-04',
          }),
          201,
        ),
      ),
    );
    const { code, stdout } = await runAdminOn(api, ['records', 'tally-again']);
    await writing;
    expect(code, stdout).toBe(0);
    expect(stdout).toMatch(/Counted the tallies again from the records: corrected \d+ line item/);
    const [items, results] = await Promise.all([walk('line_items'), walk('results')]);
    for (const one of items) {
      expectDistribution(await distributionOf(one.line_item_id), await expectedDistribution(one, results));
    }
    expect(await summaryOf(studentId)).toEqual(await expectedSummary(studentId));
    expect(
      Object.keys(await storedTally('line_items', item.line_item_id)).some((n) => stale.includes(n)),
    ).toBe(false);
    // Run again, it finds nothing to correct.
    const again = await runAdminOn(api, ['records', 'tally-again']);
    expect(again.stdout).toContain('corrected 0 line item(s) and student(s)');
  });
});
