// The OneRoster 1.2 Gradebook binding's categories, line items and results (docs/oneroster.md, "Gradebook"), against
// 1EdTech's published OpenAPI file of the binding (test/fixtures/oneroster/): every response meets its
// schemas, the objects are the native records, the binding's scopes guard them, paging, filter, sort and
// fields work as in rostering, a delta read tells of a deleted one, and a client registered with schools
// reads the line items and results of its schools' classes.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertRecords } from '../shared/data/seed-records';
import { oneRosterScopes } from '../shared/domain/groups';
import { demoPeople } from './support/demo-people';
import { registeredClient } from './support/oauth';
import { bindingBody, bindingRef, validResponse } from './support/oneroster-binding';
import { createRecord, removeRecord, startTestApi, type TestApi, waitForSyncLag } from './support/test-api';

const BASE = '/ims/oneroster/gradebook/v1p2';

let api: TestApi;
const { auditEventsOf } = demoPeople(() => api);
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.stop());

type Row = Record<string, unknown>;
type Obj = { sourcedId: string } & Row;

const categoriesOf = async (query: string, token?: string) =>
  (await validResponse(await api.get(`${BASE}/categories?${query}`, { token }), 'CategoriesSetDType'))
    .categories as Obj[];

const nativeCategories = async () =>
  ((await (await api.get('/api/categories?items_per_page=500')).json()) as { categories: Row[] }).categories;

const schoolYear = async () =>
  (
    (await (await api.get('/api/academic_sessions?items_per_page=500')).json()) as {
      academic_sessions: Row[];
    }
  ).academic_sessions.find((s) => s.type === 'school_year')?.academic_session_id;

describe('GET /categories and /categories/{sourcedId}', () => {
  it('answer the native categories as the binding describes them', async () => {
    const native = await nativeCategories();
    const response = await api.get(`${BASE}/categories?limit=100`);
    const objects = (await validResponse(response, 'CategoriesSetDType')).categories as Obj[];
    expect(response.headers.get('x-total-count')).toBe(String(native.length));
    expect(objects).toEqual(
      native
        .map((c) => ({
          sourcedId: c.category_id,
          status: 'active',
          dateLastModified: c.updated_at,
          title: c.title,
          weight: c.weight,
        }))
        .sort((a, b) => String(a.sourcedId).localeCompare(String(b.sourcedId))),
    );
    for (const object of objects) {
      const single = await validResponse(
        await api.get(`${BASE}/categories/${object.sourcedId}`),
        'SingleCategoryDType',
      );
      expect(single.category).toEqual(object);
    }
  });

  it('page, filter, sort and select fields as the rostering collections do', async () => {
    const all = await categoriesOf('limit=100');
    const first = await api.get(`${BASE}/categories?limit=1`);
    expect(
      ((await validResponse(first, 'CategoriesSetDType')).categories as Obj[]).map((c) => c.sourcedId),
    ).toEqual([all[0]?.sourcedId]);
    expect(first.headers.get('x-total-count')).toBe(String(all.length));
    expect(first.headers.get('link')).toContain('rel="next"');
    const testes = all.find((c) => c.title === 'Testes') as Obj;
    expect(await categoriesOf(`filter=${encodeURIComponent("title='Testes'")}`)).toEqual([testes]);
    const byWeight = await categoriesOf('sort=weight&orderBy=desc');
    expect(byWeight.map((c) => c.weight)).toEqual(all.map((c) => c.weight as number).sort((a, b) => b - a));
    // Selected fields leave out what the schema requires: the binding allows it for `fields`.
    const selected = await api.get(`${BASE}/categories?fields=sourcedId,title`);
    expect(((await selected.json()) as { categories: Obj[] }).categories).toEqual(
      all.map(({ sourcedId, title }) => ({ sourcedId, title })),
    );
  });

  it('refuse an unknown sourcedId or field with the binding’s imsx_StatusInfo', async () => {
    await validResponse(
      await api.get(`${BASE}/categories/00000000-0000-4000-8000-000000000000`),
      'imsx_StatusInfoDType',
      404,
    );
    await validResponse(await api.get(`${BASE}/categories/cat-1`), 'imsx_StatusInfoDType', 404);
    const unknownField = await validResponse(
      await api.get(`${BASE}/categories?filter=${encodeURIComponent("colour='red'")}`),
      'imsx_StatusInfoDType',
      400,
    );
    expect(unknownField).toMatchObject({ imsx_codeMajor: 'failure', imsx_severity: 'error' });
  });

  it('take gradebook.readonly or gradebook-core.readonly, and no rostering or native scope', async () => {
    for (const scope of [oneRosterScopes.gradebook, oneRosterScopes.gradebookCore]) {
      const token = await api.token(scope);
      expect((await categoriesOf('limit=1', token)).length).toBe(1);
    }
    for (const scope of [oneRosterScopes.roster, 'gradebook:read']) {
      const token = await api.token(scope);
      await validResponse(await api.get(`${BASE}/categories`, { token }), 'imsx_StatusInfoDType', 403);
      await validResponse(
        await api.get(`${BASE}/categories/00000000-0000-4000-8000-000000000000`, { token }),
        'imsx_StatusInfoDType',
        403,
      );
    }
  });

  it('tell a delta read of a category made, changed and deleted since', async () => {
    const since = new Date().toISOString();
    await new Promise((resolve) => setTimeout(resolve, 5));
    const made = await createRecord(api, 'categories', {
      title: 'Projetos',
      weight: 15,
      school_year_id: await schoolYear(),
    });
    const gone = await createRecord(api, 'categories', {
      title: 'Fichas',
      school_year_id: await schoolYear(),
    });
    await removeRecord(api, 'categories', gone.category_id);
    await waitForSyncLag();
    const delta = await categoriesOf(`limit=100&filter=${encodeURIComponent(`dateLastModified>'${since}'`)}`);
    expect(delta).toHaveLength(2);
    expect(delta).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          sourcedId: made.category_id,
          status: 'active',
          title: 'Projetos',
          weight: 15,
        }),
        expect.objectContaining({ sourcedId: gone.category_id, status: 'tobedeleted' }),
      ]),
    );
    await removeRecord(api, 'categories', made.category_id);
  });
});

const lineItemsOf = async (query: string, token?: string) =>
  (await validResponse(await api.get(`${BASE}/lineItems?${query}`, { token }), 'LineItemSetDType'))
    .lineItems as Obj[];

const native = async <T extends Row>(group: string) =>
  ((await (await api.get(`/api/${group}?items_per_page=500`)).json()) as Record<string, T[]>)[group] as T[];

describe('GET /lineItems and /lineItems/{sourcedId}', () => {
  it("answer the native line items as the binding describes them, each at its class's school", async () => {
    const [items, classes] = await Promise.all([native('line_items'), native('classes')]);
    const schoolOf = new Map(classes.map((c) => [c.class_id, c.school_id]));
    const response = await api.get(`${BASE}/lineItems?limit=1000`);
    const objects = (await validResponse(response, 'LineItemSetDType')).lineItems as Obj[];
    expect(response.headers.get('x-total-count')).toBe(String(items.length));
    expect(objects.map((o) => o.sourcedId)).toEqual(items.map((i) => i.line_item_id).sort());
    const byId = new Map(objects.map((o) => [o.sourcedId, o]));
    for (const item of items) {
      expect(byId.get(item.line_item_id as string)).toMatchObject({
        status: 'active',
        dateLastModified: item.updated_at,
        title: item.title,
        description: item.description,
        assignDate: `${item.assign_date}T00:00:00.000Z`,
        dueDate: `${item.due_date}T00:00:00.000Z`,
        class: { sourcedId: item.class_id, type: 'class' },
        school: { sourcedId: schoolOf.get(item.class_id), type: 'org' },
        category: { href: expect.stringContaining(`${BASE}/categories/`), sourcedId: item.category_id },
        gradingPeriod: { sourcedId: item.grading_period_id, type: 'academicSession' },
      });
    }
    const [first] = objects as [Obj];
    const single = await validResponse(
      await api.get(`${BASE}/lineItems/${first.sourcedId}`),
      'SingleLineItemDType',
    );
    expect(single.lineItem).toEqual(first);
    await validResponse(
      await api.get(`${BASE}/lineItems/00000000-0000-4000-8000-000000000000`),
      'imsx_StatusInfoDType',
      404,
    );
  });

  it('page, filter, sort and select fields as rostering does', async () => {
    const all = await lineItemsOf('limit=1000');
    const page = await api.get(`${BASE}/lineItems?limit=2&offset=2`);
    expect(
      ((await validResponse(page, 'LineItemSetDType')).lineItems as Obj[]).map((o) => o.sourcedId),
    ).toEqual(all.slice(2, 4).map((o) => o.sourcedId));
    const released = all.filter((o) => o.title === 'Teste de avaliação 1');
    expect(
      await lineItemsOf(`limit=1000&filter=${encodeURIComponent("title='Teste de avaliação 1'")}`),
    ).toEqual(released);
    const byDue = await lineItemsOf('limit=1000&sort=dueDate&orderBy=desc');
    expect(byDue.map((o) => o.dueDate)).toEqual(
      all
        .map((o) => o.dueDate)
        .sort()
        .reverse(),
    );
    const selected = await api.get(`${BASE}/lineItems?limit=1&fields=sourcedId,title`);
    expect(((await selected.json()) as { lineItems: Obj[] }).lineItems).toEqual([
      { sourcedId: all[0]?.sourcedId, title: all[0]?.title },
    ]);
  });

  it('tell a delta read of a line item made and deleted since, and take only the gradebook scopes', async () => {
    const [item] = await native('line_items');
    const { line_item_id, created_at, updated_at, ...body } = item as Row;
    const since = new Date().toISOString();
    await new Promise((resolve) => setTimeout(resolve, 5));
    const made = await createRecord(api, 'line_items', { ...body, title: 'Ficha de revisão' });
    const gone = await createRecord(api, 'line_items', { ...body, title: 'Ficha apagada' });
    await removeRecord(api, 'line_items', gone.line_item_id);
    await waitForSyncLag();
    const delta = await lineItemsOf(`limit=100&filter=${encodeURIComponent(`dateLastModified>'${since}'`)}`);
    expect(delta).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          sourcedId: made.line_item_id,
          status: 'active',
          title: 'Ficha de revisão',
        }),
        expect.objectContaining({
          sourcedId: gone.line_item_id,
          status: 'tobedeleted',
          class: expect.objectContaining({ sourcedId: body.class_id }),
        }),
      ]),
    );
    expect(delta).toHaveLength(2);
    await removeRecord(api, 'line_items', made.line_item_id);
    for (const scope of [oneRosterScopes.roster, 'gradebook:read']) {
      const token = await api.token(scope);
      await validResponse(await api.get(`${BASE}/lineItems`, { token }), 'imsx_StatusInfoDType', 403);
    }
  });

  it("read for a client registered with schools only its schools' classes' line items", async () => {
    const [items, classes] = await Promise.all([native('line_items'), native('classes')]);
    const school = classes[0]?.school_id as string;
    const theirs = new Set(classes.filter((c) => c.school_id === school).map((c) => c.class_id));
    const { token } = await registeredClient(api, {
      name: 'One school gradebook',
      scopes: [oneRosterScopes.gradebook],
      schools: [school],
    });
    const objects = await lineItemsOf('limit=1000', token);
    expect(objects.map((o) => o.sourcedId)).toEqual(
      items
        .filter((i) => theirs.has(i.class_id))
        .map((i) => i.line_item_id)
        .sort(),
    );
    const outside = items.find((i) => !theirs.has(i.class_id)) as Row;
    await validResponse(
      await api.get(`${BASE}/lineItems/${outside.line_item_id}`, { token }),
      'imsx_StatusInfoDType',
      404,
    );
  });
});

describe('GET /classes/{classSourcedId}/lineItems', () => {
  it("answers a class's line items, with gradebook.readonly alone, and 404 for a class there is not", async () => {
    const [items, classes] = await Promise.all([native('line_items'), native('classes')]);
    const cls = classes[0] as Row;
    const all = await lineItemsOf('limit=1000');
    const path = `${BASE}/classes/${cls.class_id}/lineItems`;
    const response = await api.get(`${path}?limit=1000`);
    const objects = (await validResponse(response, 'LineItemSetDType')).lineItems as Obj[];
    const expected = items.filter((i) => i.class_id === cls.class_id).map((i) => i.line_item_id);
    expect(expected.length).toBeGreaterThan(0);
    expect(objects.map((o) => o.sourcedId)).toEqual(expected.sort());
    expect(objects).toEqual(all.filter((o) => expected.includes(o.sourcedId)));
    expect(response.headers.get('x-total-count')).toBe(String(expected.length));
    const sorted = await validResponse(await api.get(`${path}?sort=title&orderBy=desc`), 'LineItemSetDType');
    expect((sorted.lineItems as Obj[]).map((o) => o.title)).toEqual(
      objects
        .map((o) => o.title as string)
        .sort()
        .reverse(),
    );
    await validResponse(
      await api.get(`${BASE}/classes/00000000-0000-4000-8000-000000000000/lineItems`),
      'imsx_StatusInfoDType',
      404,
    );
    const core = await api.token(oneRosterScopes.gradebookCore);
    await validResponse(await api.get(path, { token: core }), 'imsx_StatusInfoDType', 403);
    const full = await api.token(oneRosterScopes.gradebook);
    await validResponse(await api.get(path, { token: full }), 'LineItemSetDType');
  });

  it("answers a client registered with schools only its schools' classes", async () => {
    const classes = await native('classes');
    const school = classes[0]?.school_id as string;
    const other = classes.find((c) => c.school_id !== school) as Row;
    const { token } = await registeredClient(api, {
      name: 'One school, a class of another',
      scopes: [oneRosterScopes.gradebook],
      schools: [school],
    });
    await validResponse(
      await api.get(`${BASE}/classes/${classes[0]?.class_id}/lineItems`, { token }),
      'LineItemSetDType',
    );
    await validResponse(
      await api.get(`${BASE}/classes/${other.class_id}/lineItems`, { token }),
      'imsx_StatusInfoDType',
      404,
    );
  });
});

/** Every native record of a group, page by page. */
async function everyNative(group: string): Promise<Row[]> {
  const rows: Row[] = [];
  let next: string | undefined = `/api/${group}?items_per_page=500`;
  while (next) {
    const page = (await (await api.get(next)).json()) as Row;
    rows.push(...(page[group] as Row[]));
    next = page.next_cursor ? `/api/${group}?items_per_page=500&cursor=${page.next_cursor}` : undefined;
  }
  return rows;
}

/** The user (person entity) of each student record. */
const usersOfStudents = async () =>
  new Map((await everyNative('students')).map((s) => [s.student_id as string, s.entity_id as string]));

/** A native result as the binding's object names it. */
const asObject = (result: Row, userOf: Map<string, string>) => ({
  sourcedId: result.result_id,
  status: 'active',
  dateLastModified: result.updated_at,
  lineItem: {
    href: expect.stringContaining(`${BASE}/lineItems/${result.line_item_id}`),
    sourcedId: result.line_item_id,
    type: 'lineItem',
  },
  student: {
    href: expect.stringContaining(
      `/ims/oneroster/rostering/v1p2/users/${userOf.get(result.student_id as string)}`,
    ),
    sourcedId: userOf.get(result.student_id as string),
    type: 'user',
  },
  class: {
    href: expect.stringContaining(`/classes/${result.class_id}`),
    sourcedId: result.class_id,
    type: 'class',
  },
  scoreStatus: result.status,
  ...(result.score === null ? {} : { score: result.score }),
  ...(result.text_score === null ? {} : { textScore: result.text_score }),
  scoreDate: result.score_date,
  ...(result.comment === '' ? {} : { comment: result.comment }),
});

const resultsOf = async (path: string, token?: string) =>
  (await validResponse(await api.get(`${BASE}${path}`, { token }), 'ResultSetDType')).results as Obj[];

describe('GET /results and /results/{sourcedId}', () => {
  it('answer the native results as the binding describes them, each student named by their user', async () => {
    const [results, userOf] = await Promise.all([everyNative('results'), usersOfStudents()]);
    const response = await api.get(`${BASE}/results?limit=1000`);
    const objects = (await validResponse(response, 'ResultSetDType')).results as Obj[];
    expect(response.headers.get('x-total-count')).toBe(String(results.length));
    const sorted = [...results].sort((a, b) => String(a.result_id).localeCompare(String(b.result_id)));
    expect(objects).toEqual(sorted.slice(0, 1000).map((r) => asObject(r, userOf)));
    const [first] = objects as [Obj];
    const single = await validResponse(
      await api.get(`${BASE}/results/${first.sourcedId}`),
      'SingleResultDType',
    );
    expect(single.result).toEqual(first);
    await validResponse(
      await api.get(`${BASE}/results/00000000-0000-4000-8000-000000000000`),
      'imsx_StatusInfoDType',
      404,
    );
    const high = await resultsOf(`/results?limit=1000&filter=${encodeURIComponent("score>='90'")}`);
    expect(high.length).toBeGreaterThan(0);
    for (const o of high) expect(o.score as number).toBeGreaterThanOrEqual(90);
  });

  it('tell a delta read of a result made and deleted since, and take only the gradebook scopes', async () => {
    const [result] = await native('results');
    const { result_id, created_at, updated_at, line_item_id, ...body } = result as Row;
    const item = (await (await api.get(`/api/line_items/${line_item_id}`)).json()) as Row;
    const { line_item_id: _id, created_at: _made, updated_at: _changed, ...itemBody } = item;
    const since = new Date().toISOString();
    await new Promise((resolve) => setTimeout(resolve, 5));
    const quiz = await createRecord(api, 'line_items', { ...itemBody, title: 'Questão-aula' });
    const made = await createRecord(api, 'results', { ...body, line_item_id: quiz.line_item_id, score: 12 });
    const gone = await createRecord(api, 'line_items', { ...itemBody, title: 'Questão apagada' });
    const goneResult = await createRecord(api, 'results', { ...body, line_item_id: gone.line_item_id });
    await removeRecord(api, 'results', goneResult.result_id);
    await waitForSyncLag();
    const delta = await resultsOf(
      `/results?limit=100&filter=${encodeURIComponent(`dateLastModified>'${since}'`)}`,
    );
    const userOf = await usersOfStudents();
    expect(delta).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ sourcedId: made.result_id, status: 'active', score: 12 }),
        expect.objectContaining({
          sourcedId: goneResult.result_id,
          status: 'tobedeleted',
          lineItem: expect.objectContaining({ sourcedId: gone.line_item_id }),
          student: expect.objectContaining({ sourcedId: userOf.get(body.student_id as string) }),
        }),
      ]),
    );
    expect(delta).toHaveLength(2);
    await removeRecord(api, 'results', made.result_id);
    await removeRecord(api, 'line_items', quiz.line_item_id);
    await removeRecord(api, 'line_items', gone.line_item_id);
    for (const scope of [oneRosterScopes.roster, 'gradebook:read']) {
      const token = await api.token(scope);
      await validResponse(await api.get(`${BASE}/results`, { token }), 'imsx_StatusInfoDType', 403);
    }
  });
});

describe("GET a class's results: /classes/{classSourcedId}/results, by student and by line item", () => {
  it('answer with gradebook.readonly alone, narrowed as the path says, and 404 for what is not there', async () => {
    const [results, userOf] = await Promise.all([everyNative('results'), usersOfStudents()]);
    const [sample] = results as [Row];
    const classId = sample.class_id as string;
    const ofClass = results.filter((r) => r.class_id === classId);
    const ids = (rows: readonly Row[]) => rows.map((r) => r.result_id as string).sort();
    const path = `/classes/${classId}/results`;
    const whole = await resultsOf(`${path}?limit=1000`);
    expect(whole.map((o) => o.sourcedId)).toEqual(ids(ofClass));
    expect(whole).toEqual(
      [...ofClass]
        .sort((a, b) => String(a.result_id).localeCompare(String(b.result_id)))
        .map((r) => asObject(r, userOf)),
    );
    const user = userOf.get(sample.student_id as string) as string;
    const students = await resultsOf(`/classes/${classId}/students/${user}/results`);
    expect(students.map((o) => o.sourcedId)).toEqual(
      ids(ofClass.filter((r) => r.student_id === sample.student_id)),
    );
    const forItem = await resultsOf(
      `/classes/${classId}/lineItems/${sample.line_item_id}/results?limit=1000`,
    );
    expect(forItem.map((o) => o.sourcedId)).toEqual(
      ids(ofClass.filter((r) => r.line_item_id === sample.line_item_id)),
    );
    const none = '00000000-0000-4000-8000-000000000000';
    const other = results.find((r) => r.class_id !== classId) as Row;
    for (const missing of [
      `/classes/${none}/results`,
      `/classes/${classId}/students/${none}/results`,
      `/classes/${classId}/students/${classId}/results`,
      `/classes/${classId}/lineItems/${other.line_item_id}/results`,
    ]) {
      await validResponse(await api.get(`${BASE}${missing}`), 'imsx_StatusInfoDType', 404);
    }
    const core = await api.token(oneRosterScopes.gradebookCore);
    await validResponse(await api.get(`${BASE}${path}`, { token: core }), 'imsx_StatusInfoDType', 403);
  });

  it("read for a client registered with schools only its schools' classes' results", async () => {
    const [results, classes] = await Promise.all([everyNative('results'), native('classes')]);
    const school = classes[0]?.school_id as string;
    const theirs = new Set(classes.filter((c) => c.school_id === school).map((c) => c.class_id));
    const { token } = await registeredClient(api, {
      name: 'One school results',
      scopes: [oneRosterScopes.gradebook],
      schools: [school],
    });
    const held = results.filter((r) => theirs.has(r.class_id));
    const response = await api.get(`${BASE}/results?limit=1000`, { token });
    expect(response.headers.get('x-total-count')).toBe(String(held.length));
    const objects = (await validResponse(response, 'ResultSetDType')).results as Obj[];
    expect(objects.map((o) => o.sourcedId)).toEqual(
      held
        .map((r) => r.result_id as string)
        .sort()
        .slice(0, 1000),
    );
    const outside = results.find((r) => !theirs.has(r.class_id)) as Row;
    await validResponse(
      await api.get(`${BASE}/results/${outside.result_id}`, { token }),
      'imsx_StatusInfoDType',
      404,
    );
    await validResponse(
      await api.get(`${BASE}/classes/${outside.class_id}/results`, { token }),
      'imsx_StatusInfoDType',
      404,
    );
  });
});

const ref = (type: string, sourcedId: unknown, path: string) => bindingRef(api.url, type, sourcedId, path);

const newId = () => randomUUID();
const now = () => new Date().toISOString();

describe('PUT and DELETE /categories, /lineItems and /results/{sourcedId}', () => {
  /** A result of the demo data: its class, a category of its line item, and the user of its student. */
  const setting = async () => {
    const [result] = await native('results');
    const { class_id, line_item_id, student_id } = result as Row;
    const item = (await (await api.get(`/api/line_items/${line_item_id}`)).json()) as Row;
    const cls = (await (await api.get(`/api/classes/${class_id}`)).json()) as Row;
    const student = (await (await api.get(`/api/students/${student_id}`)).json()) as Row;
    return { cls, categoryId: item.category_id, userId: student.entity_id as string, studentId: student_id };
  };

  const lineItem = (id: string, s: Awaited<ReturnType<typeof setting>>, fields: Row = {}) => ({
    lineItem: {
      sourcedId: id,
      status: 'active',
      dateLastModified: now(),
      title: 'Ficha de trabalho 3',
      description: 'Frações e decimais',
      assignDate: '2026-11-02T00:00:00.000Z',
      dueDate: '2026-11-09T00:00:00.000Z',
      class: ref('class', s.cls.class_id, '/ims/oneroster/rostering/v1p2/classes'),
      school: ref('org', s.cls.school_id, '/ims/oneroster/rostering/v1p2/orgs'),
      category: ref('category', s.categoryId, `${BASE}/categories`),
      resultValueMin: 0,
      resultValueMax: 20,
      ...fields,
    },
  });

  const result = (id: string, lineItemId: string, userId: string, fields: Row = {}) => ({
    result: {
      sourcedId: id,
      status: 'active',
      dateLastModified: now(),
      lineItem: ref('lineItem', lineItemId, `${BASE}/lineItems`),
      student: ref('user', userId, '/ims/oneroster/rostering/v1p2/users'),
      scoreStatus: 'fully graded',
      score: 17,
      scoreDate: '2026-11-10',
      comment: 'Bom trabalho',
      ...fields,
    },
  });

  const put = (path: string, body: unknown, token?: string) =>
    api.send('PUT', `${BASE}${path}`, body, { token });

  it('write nothing a client’s profile keeps from it: refuse setting it, and keep it on a replace', async () => {
    const s = await setting();
    const { token } = await registeredClient(api, {
      name: 'Scores only',
      scopes: [oneRosterScopes.gradebookCreatePut, oneRosterScopes.gradebookCreatePost],
      profile: { oneroster: { results: { exclude: ['comment'] } } },
    });
    const itemId = newId();
    expect((await put(`/lineItems/${itemId}`, lineItem(itemId, s))).status).toBe(201);
    const resultId = newId();
    expect((await put(`/results/${resultId}`, result(resultId, itemId, s.userId))).status).toBe(201);
    // It sets no comment, made or replaced; a replace leaving the comment out keeps it.
    const refused = await validResponse(
      await put(`/results/${resultId}`, result(resultId, itemId, s.userId, { comment: 'Outro' }), token),
      'imsx_StatusInfoDType',
      400,
    );
    expect(refused.imsx_description).toContain('profile');
    const regraded = result(resultId, itemId, s.userId, { score: 12, comment: undefined });
    expect((await put(`/results/${resultId}`, regraded, token)).status).toBe(201);
    expect((await (await api.get(`/api/results/${resultId}`)).json()) as Row).toMatchObject({
      score: 12,
      comment: 'Bom trabalho',
    });
    // A POST would replace results whole, clearing what it cannot read: it posts none.
    await validResponse(
      await api.send(
        'POST',
        `${BASE}/lineItems/${itemId}/results`,
        { results: [regraded.result] },
        { token },
      ),
      'imsx_StatusInfoDType',
      400,
    );
    expect((await (await api.get(`/api/results/${resultId}`)).json()) as Row).toMatchObject({
      comment: 'Bom trabalho',
    });
    expect((await api.send('DELETE', `${BASE}/results/${resultId}`)).status).toBe(204);
    expect((await api.send('DELETE', `${BASE}/lineItems/${itemId}`)).status).toBe(204);
  });

  it('make and replace a line item and a result under the client’s sourcedIds, as grade passback does', async () => {
    const s = await setting();
    const itemId = newId();
    const made = await put(`/lineItems/${itemId}`, bindingBody('SingleLineItemDType', lineItem(itemId, s)));
    expect(made.status, await made.clone().text()).toBe(201);
    expect(made.headers.get('location')).toBe(`${api.url}${BASE}/lineItems/${itemId}`);
    expect(await made.text()).toBe('');
    const read = await validResponse(await api.get(`${BASE}/lineItems/${itemId}`), 'SingleLineItemDType');
    expect(read.lineItem).toMatchObject({
      sourcedId: itemId,
      status: 'active',
      title: 'Ficha de trabalho 3',
      description: 'Frações e decimais',
      assignDate: '2026-11-02T00:00:00.000Z',
      dueDate: '2026-11-09T00:00:00.000Z',
      class: { sourcedId: s.cls.class_id },
      school: { sourcedId: s.cls.school_id },
      category: { sourcedId: s.categoryId },
      resultValueMin: 0,
      resultValueMax: 20,
    });
    const nativeItem = (await (await api.get(`/api/line_items/${itemId}`)).json()) as Row;
    expect(nativeItem).toMatchObject({
      class_id: s.cls.class_id,
      assign_date: '2026-11-02',
      released: false,
    });

    const resultId = newId();
    const graded = await put(
      `/results/${resultId}`,
      bindingBody('SingleResultDType', result(resultId, itemId, s.userId)),
    );
    expect(graded.status, await graded.clone().text()).toBe(201);
    const readResult = await validResponse(await api.get(`${BASE}/results/${resultId}`), 'SingleResultDType');
    expect(readResult.result).toMatchObject({
      sourcedId: resultId,
      lineItem: { sourcedId: itemId },
      student: { sourcedId: s.userId },
      class: { sourcedId: s.cls.class_id },
      scoreStatus: 'fully graded',
      score: 17,
      scoreDate: '2026-11-10',
      comment: 'Bom trabalho',
    });
    expect((await (await api.get(`/api/results/${resultId}`)).json()) as Row).toMatchObject({
      class_id: s.cls.class_id,
      line_item_id: itemId,
      student_id: s.studentId,
    });

    // A second PUT replaces: the same object, its new values, and no second record.
    const before = await api.records.count('results');
    const regraded = await put(
      `/results/${resultId}`,
      result(resultId, itemId, s.userId, { score: 19, comment: undefined }),
    );
    expect(regraded.status).toBe(201);
    const replaced = await validResponse(await api.get(`${BASE}/results/${resultId}`), 'SingleResultDType');
    expect(replaced.result).toMatchObject({ score: 19 });
    expect(replaced.result).not.toHaveProperty('comment');
    expect(await api.records.count('results')).toBe(before);
    // What the binding's line item does not carry stays: its release to students.
    await api.send('PUT', `/api/line_items/${itemId}`, {
      ...Object.fromEntries(
        Object.entries(nativeItem).filter(([k]) => !['line_item_id', 'created_at', 'updated_at'].includes(k)),
      ),
      released: true,
    });
    // A date-time with an offset is kept as its day in UTC.
    const renamed = await put(
      `/lineItems/${itemId}`,
      lineItem(itemId, s, { title: 'Ficha 3 (corrigida)', dueDate: '2026-11-09T23:30:00-02:00' }),
    );
    expect(renamed.status).toBe(201);
    expect((await (await api.get(`/api/line_items/${itemId}`)).json()) as Row).toMatchObject({
      title: 'Ficha 3 (corrigida)',
      due_date: '2026-11-10',
      released: true,
    });

    // DELETE: a line item a result names stays (409); its result goes, then it does; each then is 404.
    await validResponse(await api.send('DELETE', `${BASE}/lineItems/${itemId}`), 'imsx_StatusInfoDType', 409);
    expect((await api.send('DELETE', `${BASE}/results/${resultId}`)).status).toBe(204);
    await validResponse(await api.get(`${BASE}/results/${resultId}`), 'imsx_StatusInfoDType', 404);
    expect((await api.send('DELETE', `${BASE}/lineItems/${itemId}`)).status).toBe(204);
    await validResponse(await api.send('DELETE', `${BASE}/lineItems/${itemId}`), 'imsx_StatusInfoDType', 404);
    await validResponse(await api.send('DELETE', `${BASE}/results/not-a-uuid`), 'imsx_StatusInfoDType', 404);
  });

  it('make one line item of PUTs of a new sourcedId sent at once, each answered 201', async () => {
    const s = await setting();
    const before = await api.records.count('line_items');
    const id = newId();
    const answers = await Promise.all(
      ['Ficha A', 'Ficha B', 'Ficha C'].map((title) => put(`/lineItems/${id}`, lineItem(id, s, { title }))),
    );
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201]);
    expect(await api.records.count('line_items')).toBe(before + 1);
    expect((await api.send('DELETE', `${BASE}/lineItems/${id}`)).status).toBe(204);
  });

  it('answer each PUT racing DELETEs of its sourcedId with 201, making or replacing the object', async () => {
    const s = await setting();
    const id = newId();
    for (let round = 0; round < 5; round++) {
      expect((await put(`/lineItems/${id}`, lineItem(id, s))).status).toBe(201);
      const answers = await Promise.all([
        ...['Ficha A', 'Ficha B', 'Ficha C'].map((title) =>
          put(`/lineItems/${id}`, lineItem(id, s, { title })),
        ),
        ...[0, 1, 2].map(() => api.send('DELETE', `${BASE}/lineItems/${id}`)),
      ]);
      expect(answers.slice(0, 3).map((a) => a.status)).toEqual([201, 201, 201]);
      for (const deleted of answers.slice(3)) expect([204, 404]).toContain(deleted.status);
      await api.send('DELETE', `${BASE}/lineItems/${id}`);
    }
  });

  it('make a category in the school year that holds today, and keep its school year on a replace', async () => {
    const today = now().slice(0, 10);
    const year = await createRecord(api, 'academic_sessions', {
      title: 'Ano de hoje',
      type: 'school_year',
      start_date: today,
      end_date: today,
      parent_id: null,
      school_year: today.slice(0, 4),
    });
    const id = newId();
    const body = {
      category: { sourcedId: id, status: 'active', dateLastModified: now(), title: 'Projetos', weight: 15 },
    };
    expect((await put(`/categories/${id}`, bindingBody('SingleCategoryDType', body))).status).toBe(201);
    const read = await validResponse(await api.get(`${BASE}/categories/${id}`), 'SingleCategoryDType');
    expect(read.category).toMatchObject({ sourcedId: id, title: 'Projetos', weight: 15 });
    expect((await (await api.get(`/api/categories/${id}`)).json()) as Row).toMatchObject({
      school_year_id: year.academic_session_id,
    });
    const renamed = { category: { ...body.category, title: 'Projetos de grupo', weight: undefined } };
    expect((await put(`/categories/${id}`, renamed)).status).toBe(201);
    expect((await (await api.get(`/api/categories/${id}`)).json()) as Row).toMatchObject({
      title: 'Projetos de grupo',
      weight: 15,
      school_year_id: year.academic_session_id,
    });
    expect((await api.send('DELETE', `${BASE}/categories/${id}`)).status).toBe(204);
    await removeRecord(api, 'academic_sessions', year.academic_session_id);
  });

  it('refuse bad input with 400 and the binding’s imsx_StatusInfo, and write nothing', async () => {
    const s = await setting();
    const [other] = (await native('classes')).filter((c) => c.class_id !== s.cls.class_id) as Row[];
    const [teacher] = await native('teachers');
    const counts = async () => Promise.all([api.records.count('line_items'), api.records.count('results')]);
    const before = await counts();
    const id = newId();
    const { result_id: existingResult, line_item_id: existingItem } = (await native('results'))[0] as {
      result_id: string;
      line_item_id: string;
    };
    const refusals: [string, unknown][] = [
      [`/lineItems/${id}`, lineItem(newId(), s)],
      [`/lineItems/li-1`, lineItem('li-1', s)],
      [`/lineItems/${id}`, lineItem(id, s, { status: 'tobedeleted' })],
      [`/lineItems/${id}`, lineItem(id, s, { title: undefined })],
      [`/lineItems/${id}`, lineItem(id, s, { title: '' })],
      [`/lineItems/${id}`, lineItem(id, s, { assignDate: '2026-02-30' })],
      [`/lineItems/${id}`, lineItem(id, s, { dueDate: '2026-10-01T00:00:00.000Z' })],
      [`/lineItems/${id}`, lineItem(id, s, { resultValueMax: 'twenty' })],
      [`/lineItems/${id}`, lineItem(id, s, { resultValueMax: undefined })],
      // Numbers DynamoDB cannot hold as sent (past 2^53, or below its smallest) are refused, not a 500.
      [`/lineItems/${id}`, lineItem(id, s, { resultValueMax: 1e300 })],
      [`/results/${id}`, result(id, existingItem, s.userId, { score: 1e16 })],
      [`/results/${id}`, result(id, existingItem, s.userId, { score: 5e-324 })],
      [`/lineItems/${id}`, lineItem(id, s, { assignDate: '2026-11-02T08:00:00' })],
      [
        `/lineItems/${id}`,
        lineItem(id, s, {
          school: ref('org', other?.school_id === s.cls.school_id ? newId() : other?.school_id, '/orgs'),
        }),
      ],
      [`/lineItems/${id}`, lineItem(id, s, { class: ref('class', 'class-1', '/classes') })],
      [`/lineItems/${id}`, lineItem(id, s, { category: ref('category', newId(), `${BASE}/categories`) })],
      [`/lineItems/${id}`, { lineItem: 'Ficha' }],
      [`/lineItems/${id}`, []],
      [`/results/${id}`, result(id, existingItem, s.userId, { scoreStatus: 'graded' })],
      [`/results/${id}`, result(id, existingItem, s.userId, { scoreDate: 'yesterday' })],
      [`/results/${id}`, result(id, newId(), s.userId)],
      [`/results/${id}`, result(id, 'li-1', s.userId)],
      [`/results/${id}`, result(id, existingItem, teacher?.entity_id as string)],
      [`/results/${id}`, result(id, existingItem, newId())],
      [
        `/results/${id}`,
        result(id, existingItem, s.userId, { class: ref('class', other?.class_id, '/classes') }),
      ],
      [`/results/${existingResult}`, result(existingResult, existingItem, s.userId, { score: 'A' })],
      [`/categories/${id}`, { category: { sourcedId: id, status: 'active', weight: 10 } }],
    ];
    for (const [path, body] of refusals) {
      const response = await put(path, body);
      expect(response.status, `${path} ${JSON.stringify(body)}`).toBe(400);
      await validResponse(response, 'imsx_StatusInfoDType', 400);
    }
    // imsx_description names each field at fault, and why.
    const untitled = await validResponse(
      await put(`/lineItems/${id}`, lineItem(id, s, { title: undefined, resultValueMax: 'twenty' })),
      'imsx_StatusInfoDType',
      400,
    );
    expect(untitled.imsx_description).toMatch(/lineItem\.title: .+; lineItem\.resultValueMax: /);
    // A body that is not JSON is a bad request, one not said to be JSON of a type not taken, as natively.
    await validResponse(await put(`/lineItems/${id}`, '{"lineItem": '), 'imsx_StatusInfoDType', 400);
    const text = await api.send('PUT', `${BASE}/lineItems/${id}`, 'Ficha', {
      headers: { 'content-type': 'text/plain' },
    });
    await validResponse(text, 'imsx_StatusInfoDType', 415);
    expect(await counts()).toEqual(before);
    await validResponse(await api.get(`${BASE}/lineItems/${id}`), 'imsx_StatusInfoDType', 404);
  });

  it('take gradebook.createput to PUT and gradebook.delete to DELETE, and keep a client to its schools', async () => {
    const s = await setting();
    const id = newId();
    const body = lineItem(id, s);
    for (const scope of [oneRosterScopes.gradebook, oneRosterScopes.gradebookDelete, 'gradebook:write']) {
      const token = await api.token(scope);
      await validResponse(await put(`/lineItems/${id}`, body, token), 'imsx_StatusInfoDType', 403);
    }
    const createPut = await api.token(oneRosterScopes.gradebookCreatePut);
    expect((await put(`/lineItems/${id}`, body, createPut)).status).toBe(201);
    await validResponse(
      await api.send('DELETE', `${BASE}/lineItems/${id}`, undefined, { token: createPut }),
      'imsx_StatusInfoDType',
      403,
    );
    const classes = await native('classes');
    const outside = classes.find((c) => c.school_id !== s.cls.school_id) as Row;
    const { token } = await registeredClient(api, {
      name: 'Other school gradebook',
      scopes: [
        oneRosterScopes.gradebookCreatePut,
        oneRosterScopes.gradebookCreatePost,
        oneRosterScopes.gradebookDelete,
      ],
      schools: [outside.school_id as string],
    });
    // Another school's line item is not there for it; it makes none in a class that is not its schools'.
    await validResponse(await put(`/lineItems/${id}`, body, token), 'imsx_StatusInfoDType', 404);
    await validResponse(
      await api.send('DELETE', `${BASE}/lineItems/${id}`, undefined, { token }),
      'imsx_StatusInfoDType',
      404,
    );
    const category = newId();
    const categoryBody = { category: { sourcedId: category, title: 'Projetos' } };
    await validResponse(
      await put(`/categories/${category}`, categoryBody, token),
      'imsx_StatusInfoDType',
      403,
    );
    const elsewhere = newId();
    await validResponse(
      await put(`/lineItems/${elsewhere}`, lineItem(elsewhere, s), token),
      'imsx_StatusInfoDType',
      403,
    );
    const remover = await api.token(oneRosterScopes.gradebookDelete);
    expect((await api.send('DELETE', `${BASE}/lineItems/${id}`, undefined, { token: remover })).status).toBe(
      204,
    );
    // In a class of its school, it grades no student its schools do not hold: it reads none of them.
    const theirs = newId();
    expect((await put(`/lineItems/${theirs}`, lineItem(theirs, { ...s, cls: outside }))).status).toBe(201);
    const stranger = newId();
    const refused = await validResponse(
      await put(`/results/${stranger}`, result(stranger, theirs, s.userId), token),
      'imsx_StatusInfoDType',
      403,
    );
    expect(refused.imsx_description).toContain('student');
    const posted = { results: [result('lms-1', theirs, s.userId).result] };
    await validResponse(
      await api.send('POST', `${BASE}/lineItems/${theirs}/results`, posted, { token }),
      'imsx_StatusInfoDType',
      403,
    );
    expect((await api.send('DELETE', `${BASE}/lineItems/${theirs}`)).status).toBe(204);
  });
});

describe('GET /classes/{classSourcedId}/categories', () => {
  it("answers the categories a class's line items name, with gradebook.readonly alone, and 404 for a class there is not", async () => {
    const [items, classes] = await Promise.all([native('line_items'), native('classes')]);
    const cls = classes.find((c) => items.some((i) => i.class_id === c.class_id)) as Row;
    const named = new Set(items.filter((i) => i.class_id === cls.class_id).map((i) => i.category_id));
    const path = `${BASE}/classes/${cls.class_id}/categories`;
    const response = await api.get(`${path}?limit=100`);
    const objects = (await validResponse(response, 'CategoriesSetDType')).categories as Obj[];
    expect(objects.map((c) => c.sourcedId)).toEqual([...named].sort());
    expect(response.headers.get('x-total-count')).toBe(String(named.size));
    const all = await categoriesOf('limit=100');
    expect(objects).toEqual(all.filter((c) => named.has(c.sourcedId)));
    await validResponse(
      await api.get(`${BASE}/classes/00000000-0000-4000-8000-000000000000/categories`),
      'imsx_StatusInfoDType',
      404,
    );
    const core = await api.token(oneRosterScopes.gradebookCore);
    await validResponse(await api.get(path, { token: core }), 'imsx_StatusInfoDType', 403);
    // A client registered with schools reads them for its schools' classes only.
    const outside = classes.find((c) => c.school_id !== cls.school_id) as Row;
    const { token } = await registeredClient(api, {
      name: 'Other school categories',
      scopes: [oneRosterScopes.gradebook],
      schools: [outside.school_id as string],
    });
    await validResponse(await api.get(path, { token }), 'imsx_StatusInfoDType', 404);
  });
});

describe('POST /lineItems/{lineItemSourcedId}/results', () => {
  /** A new line item of a demo class, and the users of students of that class with results there. */
  const setting = async () => {
    const [results, userOf] = await Promise.all([everyNative('results'), usersOfStudents()]);
    const { line_item_id, class_id } = results[0] as Row;
    const students = [
      ...new Set(results.filter((r) => r.class_id === class_id).map((r) => r.student_id as string)),
    ];
    const item = (await (await api.get(`/api/line_items/${line_item_id}`)).json()) as Row;
    const { line_item_id: _id, created_at: _made, updated_at: _changed, ...itemBody } = item;
    const quiz = await createRecord(api, 'line_items', { ...itemBody, title: 'Teste de avaliação' });
    const users = students.slice(0, 3).map((s) => userOf.get(s) as string);
    return {
      lineItemId: quiz.line_item_id as string,
      classId: class_id as string,
      users,
      students,
      userOfStudent: userOf,
    };
  };

  const resultSet = (lineItemId: string, users: readonly string[], fields: Row = {}) => ({
    results: users.map((user, i) => ({
      sourcedId: `lms-${i}`,
      status: 'active',
      dateLastModified: new Date().toISOString(),
      lineItem: {
        href: `${api.url}${BASE}/lineItems/${lineItemId}`,
        sourcedId: lineItemId,
        type: 'lineItem',
      },
      student: {
        href: `${api.url}/ims/oneroster/rostering/v1p2/users/${user}`,
        sourcedId: user,
        type: 'user',
      },
      scoreStatus: 'fully graded',
      score: 10 + i,
      scoreDate: '2026-11-20',
      ...fields,
    })),
  });

  const post = (lineItemId: string, body: unknown, token?: string) =>
    api.send('POST', `${BASE}/lineItems/${lineItemId}/results`, body, { token });

  it("makes each student's result in one request, answers the sourcedIds given, and replaces them when posted again", async () => {
    const { lineItemId, classId, users, students, userOfStudent } = await setting();
    const body = bindingBody('ResultSetDType', resultSet(lineItemId, users));
    const response = await post(lineItemId, body);
    expect(response.headers.get('location')).toBe(
      `${api.url}${BASE}/classes/${classId}/lineItems/${lineItemId}/results`,
    );
    const [event, ...more] = await auditEventsOf(response);
    expect(more).toEqual([]);
    expect(event).toMatchObject({
      route: 'post-oneroster-results-of-line-item',
      group: 'students',
      outcome: 201,
    });
    const graded = users.map((user) => students.find((s) => userOfStudent.get(s) === user));
    expect([...(event?.record_ids ?? [])].sort()).toEqual([...graded].sort());
    const made = await validResponse(response, 'GUIDPairSetDType', 201);
    const pairs = made.sourcedIdPairs as { suppliedSourcedId: string; allocatedSourcedId: string }[];
    expect(pairs.map((p) => p.suppliedSourcedId)).toEqual(['lms-0', 'lms-1', 'lms-2']);
    for (const [i, pair] of pairs.entries()) {
      const read = await validResponse(
        await api.get(`${BASE}/results/${pair.allocatedSourcedId}`),
        'SingleResultDType',
      );
      expect(read.result).toMatchObject({
        lineItem: { sourcedId: lineItemId },
        student: { sourcedId: users[i] },
        class: { sourcedId: classId },
        score: 10 + i,
      });
    }
    const before = await api.records.count('results');
    const again = await validResponse(
      await post(lineItemId, resultSet(lineItemId, users, { score: 19 })),
      'GUIDPairSetDType',
      201,
    );
    expect(again.sourcedIdPairs).toEqual(pairs);
    expect(await api.records.count('results')).toBe(before);
    const read = await validResponse(
      await api.get(`${BASE}/results/${pairs[0]?.allocatedSourcedId}`),
      'SingleResultDType',
    );
    expect(read.result).toMatchObject({ score: 19 });
  });

  it('refuses bad input whole, with 400 and the binding’s imsx_StatusInfo, and takes gradebook.createpost alone', async () => {
    const { lineItemId, users } = await setting();
    const [other] = (await native('line_items')).filter((i) => i.line_item_id !== lineItemId) as Row[];
    const [teacher] = await native('teachers');
    const classes = await native('classes');
    const count = () => api.records.count('results');
    const before = await count();
    const valid = resultSet(lineItemId, users);
    const withFirst = (fields: Row) => ({
      results: valid.results.map((r, i) => (i === 0 ? { ...r, ...fields } : r)),
    });
    const refusals: unknown[] = [
      { results: [] },
      { results: Array.from({ length: 33 }, () => valid.results[0]) },
      { results: [valid.results[0], valid.results[0]] },
      withFirst({ scoreStatus: 'graded' }),
      withFirst({ scoreDate: '2026-13-01' }),
      withFirst({ score: '17' }),
      withFirst({ score: -1e16 }),
      withFirst({ lineItem: { sourcedId: other?.line_item_id } }),
      withFirst({ class: { sourcedId: classes.find((c) => c.class_id !== other?.class_id)?.class_id } }),
      withFirst({ student: { sourcedId: teacher?.entity_id } }),
      withFirst({ student: { sourcedId: 'user-1' } }),
      withFirst({ status: 'tobedeleted' }),
      { result: valid.results[0] },
    ];
    for (const body of refusals) {
      const response = await post(lineItemId, body);
      expect(response.status, `refusal ${refusals.indexOf(body)}`).toBe(400);
      await validResponse(response, 'imsx_StatusInfoDType', 400);
    }
    expect(await count()).toBe(before);
    await validResponse(
      await post('00000000-0000-4000-8000-000000000000', valid),
      'imsx_StatusInfoDType',
      404,
    );
    for (const scope of [oneRosterScopes.gradebookCreatePut, oneRosterScopes.gradebook, 'gradebook:write']) {
      await validResponse(await post(lineItemId, valid, await api.token(scope)), 'imsx_StatusInfoDType', 403);
    }
    // Another school's line item is not there for a client registered with schools.
    const quiz = (await (await api.get(`/api/line_items/${lineItemId}`)).json()) as Row;
    const cls = classes.find((c) => c.class_id === quiz.class_id);
    const elsewhere = classes.find((c) => c.school_id !== cls?.school_id) as Row;
    const { token: schoolToken } = await registeredClient(api, {
      name: 'Other school poster',
      scopes: [oneRosterScopes.gradebookCreatePost],
      schools: [elsewhere.school_id as string],
    });
    await validResponse(await post(lineItemId, valid, schoolToken), 'imsx_StatusInfoDType', 404);
    const poster = await api.token(oneRosterScopes.gradebookCreatePost);
    await validResponse(await post(lineItemId, valid, poster), 'GUIDPairSetDType', 201);
  });
});

describe('GET, PUT and DELETE /scoreScales, and the score scales of a class and of a school', () => {
  const ROSTER = '/ims/oneroster/rostering/v1p2';
  const put = (path: string, body: unknown, token?: string) =>
    api.send('PUT', `${BASE}${path}`, body, { token });
  const scale = (id: string, classId: unknown, fields: Row = {}) => ({
    scoreScale: {
      sourcedId: id,
      status: 'active',
      dateLastModified: now(),
      title: 'Escala da turma',
      type: 'numeric',
      class: ref('class', classId, `${ROSTER}/classes`),
      scoreScaleValue: [{ itemValueLHS: '0 - 20', itemValueRHS: '0 - 20' }],
      ...fields,
    },
  });
  const scalesOf = async (path: string, token?: string) =>
    (
      (await validResponse(await api.get(`${BASE}${path}`, { token }), 'ScoreScaleSetDType'))
        .scoreScales as Obj[]
    ).map((s) => s.sourcedId);

  it("serve a class's own scales as the binding describes them, the tenant's none, and refer a line item to one", async () => {
    const since = now();
    const [cls, other] = (await native('classes')) as Row[];
    const tenantScales = (await native('score_scales')).filter((s) => s.class_id === null);
    expect(tenantScales.length).toBeGreaterThan(0);
    // The demo's first class has a scale of its own already.
    const ownBefore = await scalesOf(`/classes/${cls?.class_id}/scoreScales`);
    const atSchoolBefore = await scalesOf(`/schools/${cls?.school_id}/scoreScales`);
    const numeric = newId();
    const made = await put(
      `/scoreScales/${numeric}`,
      bindingBody('SingleScoreScaleDType', scale(numeric, cls?.class_id)),
    );
    expect(made.status, await made.clone().text()).toBe(201);
    expect(made.headers.get('location')).toBe(`${api.url}${BASE}/scoreScales/${numeric}`);
    const letters = newId();
    const lettered = scale(letters, cls?.class_id, {
      title: 'Menções',
      type: 'letter',
      scoreScaleValue: ['Muito Bom', 'Bom', 'Suficiente'].map((m) => ({ itemValueLHS: m, itemValueRHS: m })),
    });
    expect(
      (await put(`/scoreScales/${letters}`, bindingBody('SingleScoreScaleDType', lettered))).status,
    ).toBe(201);

    const read = await validResponse(
      await api.get(`${BASE}/scoreScales/${numeric}`),
      'SingleScoreScaleDType',
    );
    expect(read.scoreScale).toMatchObject({
      sourcedId: numeric,
      status: 'active',
      title: 'Escala da turma',
      type: 'numeric',
      class: { sourcedId: cls?.class_id, type: 'class' },
      scoreScaleValue: [{ itemValueLHS: '0 - 20', itemValueRHS: '0 - 20' }],
    });
    expect((await (await api.get(`/api/score_scales/${numeric}`)).json()) as Row).toMatchObject({
      class_id: cls?.class_id,
      type: 'numeric',
      minimum: 0,
      maximum: 20,
      values: [],
    });
    expect((await (await api.get(`/api/score_scales/${letters}`)).json()) as Row).toMatchObject({
      type: 'letter',
      minimum: null,
      values: ['Muito Bom', 'Bom', 'Suficiente'],
    });

    // The tenant's scales belong to no class: not the binding's, so not there.
    const all = await scalesOf('/scoreScales?limit=1000');
    expect(all).toEqual(expect.arrayContaining([numeric, letters]));
    for (const { score_scale_id } of tenantScales) {
      expect(all).not.toContain(score_scale_id);
      await validResponse(
        await api.get(`${BASE}/scoreScales/${score_scale_id}`),
        'imsx_StatusInfoDType',
        404,
      );
      await validResponse(
        await api.send('DELETE', `${BASE}/scoreScales/${score_scale_id}`),
        'imsx_StatusInfoDType',
        404,
      );
      await validResponse(
        await put(`/scoreScales/${score_scale_id}`, scale(score_scale_id as string, cls?.class_id)),
        'imsx_StatusInfoDType',
        409,
      );
    }
    expect(await scalesOf(`/classes/${cls?.class_id}/scoreScales`)).toEqual(
      [...ownBefore, numeric, letters].sort(),
    );
    expect(await scalesOf(`/classes/${other?.class_id}/scoreScales`)).not.toContain(numeric);
    await validResponse(await api.get(`${BASE}/classes/${newId()}/scoreScales`), 'imsx_StatusInfoDType', 404);
    expect(await scalesOf(`/schools/${cls?.school_id}/scoreScales`)).toEqual(
      [...atSchoolBefore, numeric, letters].sort(),
    );
    const otherSchool = (await native('classes')).find((c) => c.school_id !== cls?.school_id)?.school_id;
    expect(await scalesOf(`/schools/${otherSchool}/scoreScales`)).not.toContain(numeric);
    await validResponse(
      await api.get(`${BASE}/schools/${cls?.class_id}/scoreScales`),
      'imsx_StatusInfoDType',
      404,
    );
    // A class's scales take gradebook.readonly alone; the collection gradebook-core.readonly too.
    const core = await api.token(oneRosterScopes.gradebookCore);
    expect(await scalesOf('/scoreScales', core)).toEqual(expect.arrayContaining([numeric]));
    await validResponse(
      await api.get(`${BASE}/classes/${cls?.class_id}/scoreScales`, { token: core }),
      'imsx_StatusInfoDType',
      403,
    );

    // A line item on a class's scale refers to it; on the tenant's, to none.
    const [category] = await native('categories');
    const itemId = newId();
    const onScale = {
      lineItem: {
        sourcedId: itemId,
        title: 'Projeto',
        assignDate: '2026-11-02',
        dueDate: '2026-11-09',
        class: ref('class', cls?.class_id, `${ROSTER}/classes`),
        category: ref('category', category?.category_id, `${BASE}/categories`),
        scoreScale: ref('scoreScale', numeric, `${BASE}/scoreScales`),
      },
    };
    expect((await put(`/lineItems/${itemId}`, onScale)).status).toBe(201);
    // Another class's line item is not on it, and the scale does not move to another class.
    const elsewhere = newId();
    const refused = await validResponse(
      await put(`/lineItems/${elsewhere}`, {
        lineItem: {
          ...onScale.lineItem,
          sourcedId: elsewhere,
          class: ref('class', other?.class_id, `${ROSTER}/classes`),
        },
      }),
      'imsx_StatusInfoDType',
      400,
    );
    expect(refused.imsx_description).toContain('score_scale_id');
    await validResponse(
      await put(`/scoreScales/${numeric}`, scale(numeric, other?.class_id)),
      'imsx_StatusInfoDType',
      409,
    );
    const item = await validResponse(await api.get(`${BASE}/lineItems/${itemId}`), 'SingleLineItemDType');
    expect(item.lineItem).toMatchObject({
      scoreScale: {
        sourcedId: numeric,
        type: 'scoreScale',
        href: `${api.url}${BASE}/scoreScales/${numeric}`,
      },
    });
    const ofClass = (
      (
        await validResponse(
          await api.get(`${BASE}/classes/${cls?.class_id}/lineItems?limit=1000`),
          'LineItemSetDType',
        )
      ).lineItems as Obj[]
    ).find((i) => i.sourcedId === itemId);
    expect(ofClass).toMatchObject({ scoreScale: { sourcedId: numeric } });
    const onTenantScale = (await native('line_items')).find((i) =>
      tenantScales.some((s) => s.score_scale_id === i.score_scale_id),
    );
    const tenantItem = await validResponse(
      await api.get(`${BASE}/lineItems/${onTenantScale?.line_item_id}`),
      'SingleLineItemDType',
    );
    expect(tenantItem.lineItem).not.toHaveProperty('scoreScale');

    // A scale a line item names stays (409); then it goes, and a delta tells of it.
    await validResponse(
      await api.send('DELETE', `${BASE}/scoreScales/${numeric}`),
      'imsx_StatusInfoDType',
      409,
    );
    expect((await api.send('DELETE', `${BASE}/lineItems/${itemId}`)).status).toBe(204);
    expect((await api.send('DELETE', `${BASE}/scoreScales/${numeric}`)).status).toBe(204);
    await validResponse(await api.get(`${BASE}/scoreScales/${numeric}`), 'imsx_StatusInfoDType', 404);
    await validResponse(
      await api.send('DELETE', `${BASE}/scoreScales/${numeric}`),
      'imsx_StatusInfoDType',
      404,
    );
    await waitForSyncLag();
    const delta = `?limit=1000&filter=${encodeURIComponent(`dateLastModified>'${since}'`)}`;
    for (const path of [
      '/scoreScales',
      `/classes/${cls?.class_id}/scoreScales`,
      `/schools/${cls?.school_id}/scoreScales`,
    ]) {
      const told = (await validResponse(await api.get(`${BASE}${path}${delta}`), 'ScoreScaleSetDType'))
        .scoreScales as Obj[];
      expect(told, path).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            sourcedId: numeric,
            status: 'tobedeleted',
            type: 'numeric',
            class: expect.objectContaining({ sourcedId: cls?.class_id }),
          }),
          expect.objectContaining({ sourcedId: letters, status: 'active' }),
        ]),
      );
    }
    expect((await api.send('DELETE', `${BASE}/scoreScales/${letters}`)).status).toBe(204);
  });

  it("take a scale stored before scales named a class as the tenant's", async () => {
    const [cls] = (await native('classes')) as Row[];
    const id = newId();
    const stamp = now();
    // As written before `class_id` was a field of a scale: the item has none.
    await insertRecords(api.db, api.tableName, [
      {
        group: 'score_scales',
        record: {
          score_scale_id: id,
          title: 'Escala antiga',
          type: 'numeric',
          minimum: 0,
          maximum: 10,
          values: [],
          created_at: stamp,
          updated_at: stamp,
        } as never,
      },
    ]);
    const stored = (await (await api.get(`/api/score_scales/${id}`)).json()) as Row;
    expect(Object.keys(stored)).toEqual(
      Object.keys({
        score_scale_id: 0,
        title: 0,
        type: 0,
        class_id: 0,
        minimum: 0,
        maximum: 0,
        values: 0,
        created_at: 0,
        updated_at: 0,
      }),
    );
    expect(stored.class_id).toBeNull();
    await validResponse(await api.get(`${BASE}/scoreScales/${id}`), 'imsx_StatusInfoDType', 404);
    await validResponse(
      await put(`/scoreScales/${id}`, scale(id, cls?.class_id)),
      'imsx_StatusInfoDType',
      409,
    );
    await validResponse(await api.send('DELETE', `${BASE}/scoreScales/${id}`), 'imsx_StatusInfoDType', 404);
    expect((await api.send('DELETE', `/api/score_scales/${id}`)).status).toBe(204);
  });

  it('refuse a scale the service cannot keep with 400, write nothing, and take only the write scopes', async () => {
    const [cls] = (await native('classes')) as Row[];
    const before = await api.records.count('score_scales');
    const id = newId();
    const refusals: unknown[] = [
      scale(id, cls?.class_id, { type: 'percentage' }),
      scale(id, cls?.class_id, { scoreScaleValue: [] }),
      scale(id, cls?.class_id, { scoreScaleValue: [{ itemValueLHS: 'zero', itemValueRHS: 'twenty' }] }),
      scale(id, cls?.class_id, { scoreScaleValue: [{ itemValueLHS: '20 - 0', itemValueRHS: '20 - 0' }] }),
      scale(id, cls?.class_id, {
        scoreScaleValue: [
          { itemValueLHS: '0 - 10', itemValueRHS: '0 - 10' },
          { itemValueLHS: '10 - 20', itemValueRHS: '10 - 20' },
        ],
      }),
      scale(id, cls?.class_id, {
        type: 'letter',
        scoreScaleValue: [{ itemValueLHS: 'A', itemValueRHS: '' }],
      }),
      scale(id, newId()),
      scale(id, 'class-1'),
      scale(id, cls?.class_id, { class: undefined }),
      scale(id, cls?.class_id, { title: undefined }),
      scale(newId(), cls?.class_id),
      { scoreScale: 'Escala' },
    ];
    for (const body of refusals) {
      await validResponse(await put(`/scoreScales/${id}`, body), 'imsx_StatusInfoDType', 400);
    }
    for (const scope of [oneRosterScopes.gradebook, oneRosterScopes.gradebookDelete, 'gradebook:write']) {
      const token = await api.token(scope);
      await validResponse(
        await put(`/scoreScales/${id}`, scale(id, cls?.class_id), token),
        'imsx_StatusInfoDType',
        403,
      );
    }
    // Every school shares the scales: a client registered with schools reads them and writes none.
    const { token } = await registeredClient(api, {
      name: 'One school scales',
      scopes: [oneRosterScopes.gradebook, oneRosterScopes.gradebookCreatePut],
      schools: [cls?.school_id as string],
    });
    await validResponse(
      await put(`/scoreScales/${id}`, scale(id, cls?.class_id), token),
      'imsx_StatusInfoDType',
      403,
    );
    expect(await api.records.count('score_scales')).toBe(before);
    expect((await put(`/scoreScales/${id}`, scale(id, cls?.class_id))).status).toBe(201);
    expect(await scalesOf(`/classes/${cls?.class_id}/scoreScales`, token)).toContain(id);
    expect((await api.send('DELETE', `${BASE}/scoreScales/${id}`)).status).toBe(204);
  });
});
