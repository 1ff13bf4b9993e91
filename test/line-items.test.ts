// A class's line items over HTTP (issue "Grades and attendance", deliverables 1, 2 and 6): the demo's work
// of every class, the conventions of every group (contract.md sections 2 to 5), what they must name, and
// who reads and writes them: the class's teachers all of them, its students and their guardians those released to
// students, staff and administrators every one, another class's teacher none (404, as any record out
// of reach), and a client registered with schools those of its schools' classes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Entity } from '../shared/schemas/records';
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

const { tokenOf, classesOf } = demoPeople(() => api);

/** Every line item a caller reads (the administrator's own token without a username), in id order. */
async function lineItems(username?: string): Promise<Row[]> {
  const token = username === undefined ? undefined : await tokenOf(username);
  const page = await json<Row>(await api.get('/api/line_items?items_per_page=500', token ? { token } : {}));
  expect(page.next_cursor).toBeUndefined();
  return page.line_items as Row[];
}

const idsOf = (rows: readonly Row[]) => rows.map((r) => r.line_item_id as string).sort();

/** The classes the students in a guardian's care are students of. */
async function childrensClasses(username: string): Promise<Set<string>> {
  const user = await api.users.byLogin(username);
  const entity = (await api.records.get('entities', user?.entity_id as string))?.record as Entity;
  const classes = new Set<string>();
  for (const role of entity.roles.filter((r) => r.role === 'tutor')) {
    const tutor = (await api.records.get('tutors', role.id))?.record as { student_ids: string[] };
    for (const studentId of tutor.student_ids) {
      const student = (await api.records.get('students', studentId))?.record as { entity_id: string };
      for (const e of await api.records.enrollmentsOfPerson(student.entity_id)) {
        if (e.role === 'student') classes.add(e.class_id);
      }
    }
  }
  return classes;
}

/** The demo's categories, scales and a grading period and a term, for new line items. */
async function setup() {
  const [categories, scales, sessions] = await Promise.all([
    json<Row>(await api.get('/api/categories?items_per_page=50')),
    json<Row>(await api.get('/api/score_scales?items_per_page=50')),
    json<Row>(await api.get('/api/academic_sessions?items_per_page=500')),
  ]);
  const of = (type: string) =>
    (sessions.academic_sessions as Row[]).find((s) => s.type === type)?.academic_session_id as string;
  return {
    category: (categories.categories as Row[])[0]?.category_id as string,
    scale: (scales.score_scales as Row[])[0]?.score_scale_id as string,
    period: of('grading_period'),
    term: of('term'),
  };
}

describe('the demo tenant (deliverable 6)', () => {
  it('gives every class a released test and an unreleased project of its first grading period', async () => {
    const [items, classes] = await Promise.all([
      lineItems(),
      json<Row>(await api.get('/api/classes?items_per_page=500')),
    ]);
    const classIds = (classes.classes as Row[]).map((c) => c.class_id as string);
    expect(items).toHaveLength(classIds.length * 2);
    for (const item of items) expect(recordSchemas.line_items.safeParse(item).error).toBeUndefined();
    for (const classId of classIds) {
      const own = items.filter((i) => i.class_id === classId);
      expect(own.map((i) => i.released).sort()).toEqual([false, true]);
    }
  });
});

describe('line items', () => {
  it('are created, read, replaced with If-Match and deleted, and keep their class, category and scale from being deleted', async () => {
    const { category, scale, period } = await setup();
    const classId = [...(await classesOf('teacher', 'teacher'))][0] as string;
    const body = {
      class_id: classId,
      title: 'Ficha formativa',
      category_id: category,
      score_scale_id: scale,
      grading_period_id: period,
      assign_date: '2026-10-12',
      due_date: '2026-10-16',
    };
    const since = new Date(Date.now() - 1_000).toISOString();
    const created = await api.send('POST', '/api/line_items', body);
    const item = await json<Row>(created, 201);
    expect(item).toMatchObject({
      ...body,
      description: '',
      result_value_min: null,
      result_value_max: null,
      released: false,
    });
    const path = `/api/line_items/${item.line_item_id}`;
    expect(created.headers.get('location')).toBe(`${api.url}${path}`);
    expect(await json<Row>(await api.get(path))).toEqual(item);

    for (const [group, id] of [
      ['classes', classId],
      ['categories', category],
      ['score_scales', scale],
    ] as const) {
      const refused = await expectProblem(await api.send('DELETE', `/api/${group}/${id}`), 409);
      expect(refused.detail).toContain('still named by');
    }

    const released = { ...body, released: true };
    const replaced = await api.send('PUT', path, released, { headers: { 'if-match': '"1"' } });
    expect(await json<Row>(replaced)).toMatchObject({ released: true });
    await expectProblem(await api.send('PUT', path, body, { headers: { 'if-match': '"1"' } }), 412);
    expect((await api.send('DELETE', path)).status).toBe(204);
    await expectProblem(await api.get(path), 410);
    await waitForSyncLag();
    const deleted = await json<Row>(await api.get(`/api/line_items/deleted?since=${since}`));
    expect(deleted.deleted).toEqual([{ line_item_id: item.line_item_id, deleted_at: expect.any(String) }]);
  });

  it('refuse what they name missing or of another kind, no scale and no maximum, dates out of order, a range upside down (400), writing nothing', async () => {
    const { category, scale, period, term } = await setup();
    const classId = [...(await classesOf('teacher', 'teacher'))][0] as string;
    const body = {
      class_id: classId,
      title: 'Ficha',
      category_id: category,
      result_value_max: 20,
      assign_date: '2026-10-12',
      due_date: '2026-10-16',
    };
    const before = (await lineItems()).length;
    const missing = '00000000-0000-4000-8000-000000000000';
    const cases: [Row, string][] = [
      [{ ...body, class_id: missing }, 'class_id'],
      [{ ...body, category_id: missing }, 'category_id'],
      [{ ...body, score_scale_id: missing }, 'score_scale_id'],
      [{ ...body, grading_period_id: term }, 'grading_period_id'],
      [{ ...body, result_value_max: undefined }, 'result_value_max'],
      [{ ...body, result_value_min: 20 }, 'result_value_min'],
      [{ ...body, due_date: '2026-10-11' }, 'assign_date'],
      [{ ...body, due_date: '2026-02-30' }, 'due_date'],
      [{ ...body, released: 'yes' }, 'released'],
      [{ ...body, title: '' }, 'title'],
      [{ ...body, points: 20 }, 'points'],
    ];
    for (const [sent, field] of cases) {
      const problem = await expectProblem(await api.send('POST', '/api/line_items', sent), 400);
      expect(problem.errors, JSON.stringify(sent)).toContainEqual(expect.objectContaining({ name: field }));
    }
    const ok = await api.send('POST', '/api/line_items', { ...body, grading_period_id: period });
    expect(ok.status).toBe(201);
    expect((await lineItems()).length).toBe(before + 1);
    const byScale = await api.send('POST', '/api/line_items', {
      ...body,
      result_value_max: null,
      score_scale_id: scale,
    });
    expect(byScale.status).toBe(201);
  });
});

describe('who reads line items (deliverable 2)', () => {
  it("a teacher: every line item of the classes they teach, released or not, and no other class's (404)", async () => {
    const [all, taught] = await Promise.all([lineItems(), classesOf('teacher', 'teacher')]);
    const expected = all.filter((i) => taught.has(i.class_id as string));
    expect(expected.some((i) => i.released === false)).toBe(true);
    expect(idsOf(await lineItems('teacher'))).toEqual(idsOf(expected));
    const token = await tokenOf('teacher');
    const outside = all.find((i) => !taught.has(i.class_id as string)) as Row;
    await expectProblem(await api.get(`/api/line_items/${outside.line_item_id}`, { token }), 404);
    const inside = expected[0] as Row;
    expect(await json<Row>(await api.get(`/api/line_items/${inside.line_item_id}`, { token }))).toEqual(
      inside,
    );
  });

  it("a student: the released line items of their classes; a guardian: their children's; an unreleased one answers 404", async () => {
    const all = await lineItems();
    for (const [username, classes] of [
      ['student', await classesOf('student', 'student')],
      ['guardian', await childrensClasses('guardian')],
    ] as const) {
      const expected = all.filter((i) => classes.has(i.class_id as string) && i.released === true);
      expect(expected.length, username).toBeGreaterThan(0);
      expect(idsOf(await lineItems(username)), username).toEqual(idsOf(expected));
      const hidden = all.find((i) => classes.has(i.class_id as string) && i.released === false) as Row;
      const token = await tokenOf(username);
      await expectProblem(await api.get(`/api/line_items/${hidden.line_item_id}`, { token }), 404);
    }
  });

  it('a student sees a line item once it is released, in their changes feed too', async () => {
    const all = await lineItems();
    const classes = await classesOf('student', 'student');
    const hidden = all.find((i) => classes.has(i.class_id as string) && i.released === false) as Row;
    const token = await tokenOf('student');
    const path = `/api/line_items/${hidden.line_item_id}`;
    const since = new Date(Date.now() - 1_000).toISOString();
    const { line_item_id, created_at, updated_at, ...body } = hidden;
    const released = await json<Row>(await api.send('PUT', path, { ...body, released: true }));
    expect(await json<Row>(await api.get(path, { token }))).toEqual(released);
    await waitForSyncLag();
    const changes = await json<Row>(await api.get(`/api/line_items?updated_since=${since}`, { token }));
    expect((changes.line_items as Row[]).map((i) => i.line_item_id)).toContain(line_item_id);
  });

  it('staff read every line item', async () => {
    expect(idsOf(await lineItems('staff'))).toEqual(idsOf(await lineItems()));
  });

  it('a client: by the gradebook scopes; registered with schools, the line items of their classes', async () => {
    const all = await lineItems();
    const classes = (await json<Row>(await api.get('/api/classes?items_per_page=500'))).classes as Row[];
    const school = classes[0]?.school_id as string;
    const schoolClasses = new Set(classes.filter((c) => c.school_id === school).map((c) => c.class_id));
    const { token } = await registeredClient(api, {
      name: 'One school gradebook',
      scopes: ['gradebook:read'],
      schools: [school],
    });
    const page = await json<Row>(await api.get('/api/line_items?items_per_page=500', { token }));
    const expected = all.filter((i) => schoolClasses.has(i.class_id));
    expect(idsOf(page.line_items as Row[])).toEqual(idsOf(expected));
    const outside = all.find((i) => !schoolClasses.has(i.class_id)) as Row;
    await expectProblem(await api.get(`/api/line_items/${outside.line_item_id}`, { token }), 404);
    const rosterOnly = await registeredClient(api, { name: 'Roster only', scopes: ['classes:read'] });
    await expectProblem(await api.get('/api/line_items', { token: rosterOnly.token }), 403);
  });
});

describe('who writes line items (deliverable 2)', () => {
  it('a teacher: the line items of the classes they teach, which their students read once released', async () => {
    const { category } = await setup();
    const token = await tokenOf('teacher');
    const taught = [...(await classesOf('teacher', 'teacher'))];
    const students = await classesOf('student', 'student');
    const classId = taught.find((id) => students.has(id)) ?? (taught[0] as string);
    const body = {
      class_id: classId,
      title: 'Questão-aula',
      category_id: category,
      result_value_max: 10,
      assign_date: '2026-10-19',
      due_date: '2026-10-19',
    };
    const item = await json<Row>(await api.send('POST', '/api/line_items', body, { token }), 201);
    const path = `/api/line_items/${item.line_item_id}`;
    expect(await json<Row>(await api.get(path, { token }))).toEqual(item);
    const released = await json<Row>(await api.send('PUT', path, { ...body, released: true }, { token }));
    expect(released.released).toBe(true);
    if (students.has(classId)) {
      expect(await json<Row>(await api.get(path, { token: await tokenOf('student') }))).toEqual(released);
    }
    expect((await api.send('DELETE', path, undefined, { token })).status).toBe(204);
    await expectProblem(await api.get(path), 410);
  });

  it("refuses a teacher another class's line items (403 to make, 404 to change), and categories (403), writing nothing", async () => {
    const { category } = await setup();
    const token = await tokenOf('teacher');
    const taught = await classesOf('teacher', 'teacher');
    const all = await lineItems();
    const theirs = all.find((i) => !taught.has(i.class_id as string)) as Row;
    const { line_item_id, created_at, updated_at, ...body } = theirs;
    const made = await expectProblem(await api.send('POST', '/api/line_items', body, { token }), 403);
    expect(made.type).toBe('urn:problem:school-api:outside-reach');
    expect(made.errors).toEqual([{ name: 'class_id', in: 'body', reason: 'is not a class you teach' }]);
    const path = `/api/line_items/${line_item_id}`;
    await expectProblem(await api.send('PUT', path, { ...body, title: 'Outro' }, { token }), 404);
    await expectProblem(await api.send('DELETE', path, undefined, { token }), 404);
    const named = await expectProblem(
      await api.send(
        'POST',
        '/api/categories',
        {
          title: 'Minha',
          school_year_id: (await json<Row>(await api.get(`/api/categories/${category}`))).school_year_id,
        },
        { token },
      ),
      403,
    );
    expect(named.type).toBe('urn:problem:school-api:outside-reach');
    expect(await lineItems()).toEqual(all);
  });

  it('refuses a student or a guardian any write (403: their tokens carry no gradebook:write)', async () => {
    const item = (await lineItems('student'))[0] as Row;
    const { line_item_id, created_at, updated_at, ...body } = item;
    for (const username of ['student', 'guardian', 'staff']) {
      const token = await tokenOf(username);
      await expectProblem(await api.send('POST', '/api/line_items', body, { token }), 403);
      await expectProblem(
        await api.send('PUT', `/api/line_items/${line_item_id}`, { ...body, title: 'X' }, { token }),
        403,
      );
    }
    expect(await json<Row>(await api.get(`/api/line_items/${line_item_id}`))).toEqual(item);
  });
});
