// The gradebook's setup groups over HTTP (issue "Grades and attendance", deliverable 1): categories of a
// school year and score scales, with the conventions of every group (contract.md sections 2 to 5), the
// gradebook scopes (`gradebook:read`, `gradebook:write`), what every signed-in role reads of them, and
// bad bodies refused with a problem that names the field and writes nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordSchemas } from '../shared/schemas/records';
import { expectProblem, json } from './support/contract';
import { registeredClient } from './support/oauth';
import { startTestApi, type TestApi, waitForSyncLag } from './support/test-api';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.stop());

type Row = Record<string, unknown>;
type Group = 'categories' | 'score_scales' | 'classes';

const list = async (group: Group, token?: string): Promise<Row[]> => {
  const page = await json<Row>(await api.get(`/api/${group}?items_per_page=500`, token ? { token } : {}));
  return page[group] as Row[];
};

const total = async (group: Group) =>
  (await json<Row>(await api.get(`/api/${group}?items_per_page=1`))).total_items as number;

/** Each body is refused with 400 naming its field, and the group still holds `before` records. */
async function expectRefused(group: Group, cases: readonly [Row, string][], before: number) {
  for (const [body, field] of cases) {
    const problem = await expectProblem(await api.send('POST', `/api/${group}`, body), 400);
    expect(problem.errors, JSON.stringify(body)).toContainEqual(expect.objectContaining({ name: field }));
  }
  expect(await total(group)).toBe(before);
}

const schoolYear = async () =>
  json<Row>(
    await api.send('POST', '/api/academic_sessions', {
      title: 'Ano letivo 2027/28',
      type: 'school_year',
      start_date: '2027-09-13',
      end_date: '2028-06-30',
      school_year: '2028',
    }),
    201,
  );

describe('the demo tenant', () => {
  it("has categories of its school year, the school group's three score scales and a class's own, as their schemas say", async () => {
    const [categories, scales, sessions] = await Promise.all([
      list('categories'),
      list('score_scales'),
      json<Row>(await api.get('/api/academic_sessions?items_per_page=500')),
    ]);
    const years = (sessions.academic_sessions as Row[]).filter((s) => s.type === 'school_year');
    expect(categories.map((c) => c.title).sort()).toEqual(['Participação', 'Testes', 'Trabalhos']);
    for (const category of categories) {
      expect(recordSchemas.categories.safeParse(category).error).toBeUndefined();
      expect(years.map((y) => y.academic_session_id)).toContain(category.school_year_id);
    }
    const shared = scales.filter((s) => s.class_id === null);
    expect(shared.map((s) => s.type).sort()).toEqual(['letter', 'numeric', 'numeric']);
    const own = scales.filter((s) => s.class_id !== null);
    expect(own.map((s) => [s.title, s.type])).toEqual([['Apresentações orais', 'letter']]);
    const classes = await list('classes');
    expect(classes.map((c) => c.class_id)).toContain(own[0]?.class_id);
    for (const scale of scales) expect(recordSchemas.score_scales.safeParse(scale).error).toBeUndefined();
  });
});

describe('categories', () => {
  it('are created, read, replaced with If-Match, and deleted, and the deletion is told', async () => {
    const year = await schoolYear();
    const since = new Date(Date.now() - 1_000).toISOString();
    const body = { title: 'Projetos', weight: 20, school_year_id: year.academic_session_id };
    const created = await api.send('POST', '/api/categories', body);
    const category = await json<Row>(created, 201);
    expect(category).toMatchObject(body);
    const path = `/api/categories/${category.category_id}`;
    expect(created.headers.get('location')).toBe(`${api.url}${path}`);
    const read = await api.get(path);
    expect(read.headers.get('etag')).toBe('"1"');
    expect(await read.json()).toEqual(category);
    const replaced = await api.send('PUT', path, { ...body, weight: 30 }, { headers: { 'if-match': '"1"' } });
    expect(await json<Row>(replaced)).toMatchObject({ weight: 30 });
    await expectProblem(
      await api.send('PUT', path, { ...body, weight: 40 }, { headers: { 'if-match': '"1"' } }),
      412,
    );
    expect(await json<Row>(await api.get(path))).toMatchObject({ weight: 30 });
    expect((await api.send('DELETE', path)).status).toBe(204);
    await expectProblem(await api.get(path), 410);
    await waitForSyncLag();
    const deleted = await json<Row>(await api.get(`/api/categories/deleted?since=${since}`));
    expect(deleted.deleted).toEqual([
      { category_id: category.category_id, deleted_at: expect.any(String) as string },
    ]);
  });

  it('take a weight of 1 unless told, and keep their school year from being deleted or made a term (409) while named', async () => {
    const year = await schoolYear();
    const category = await json<Row>(
      await api.send('POST', '/api/categories', {
        title: 'Fichas',
        school_year_id: year.academic_session_id,
      }),
      201,
    );
    expect(category.weight).toBe(1);
    const yearPath = `/api/academic_sessions/${year.academic_session_id}`;
    const { academic_session_id, created_at, updated_at, ...yearBody } = year;
    const asTerm = await expectProblem(await api.send('PUT', yearPath, { ...yearBody, type: 'term' }), 409);
    expect(asTerm.errors).toEqual([{ name: 'type', in: 'body', reason: 'other records name it' }]);
    expect(await json<Row>(await api.get(yearPath))).toEqual(year);
    await expectProblem(await api.send('DELETE', yearPath), 409);
    expect((await api.send('DELETE', `/api/categories/${category.category_id}`)).status).toBe(204);
    expect((await api.send('DELETE', yearPath)).status).toBe(204);
  });

  it('refuse a missing school year or a session of another type, a negative or too large weight and an empty title (400), writing nothing', async () => {
    const year = await schoolYear();
    const term = await json<Row>(
      await api.send('POST', '/api/academic_sessions', {
        title: '1.º período 2027/28',
        type: 'term',
        start_date: '2027-09-13',
        end_date: '2027-12-17',
        parent_id: year.academic_session_id,
        school_year: '2028',
      }),
      201,
    );
    const before = await total('categories');
    const byTerm = await expectProblem(
      await api.send('POST', '/api/categories', {
        title: 'Fichas',
        school_year_id: term.academic_session_id,
      }),
      400,
    );
    expect(byTerm.detail).toBe('school_year_id does not name a school_year academic session.');
    expect(byTerm.errors).toEqual([
      {
        name: 'school_year_id',
        in: 'body',
        reason: `academic session ${term.academic_session_id} is not a school_year`,
      },
    ]);
    const cases: [Row, string][] = [
      [{ title: 'Fichas', school_year_id: '00000000-0000-4000-8000-000000000000' }, 'school_year_id'],
      [{ title: 'Fichas', weight: -1, school_year_id: year.academic_session_id }, 'weight'],
      [{ title: 'Fichas', weight: 1_001, school_year_id: year.academic_session_id }, 'weight'],
      [{ title: 'Fichas', weight: '20', school_year_id: year.academic_session_id }, 'weight'],
      [{ title: '', school_year_id: year.academic_session_id }, 'title'],
      [{ title: 'Fichas', school_year_id: year.academic_session_id, colour: 'red' }, 'colour'],
    ];
    await expectRefused('categories', cases, before);
  });
});

describe('score scales', () => {
  it('are numeric with a range or letter with values, best first', async () => {
    const numeric = await json<Row>(
      await api.send('POST', '/api/score_scales', {
        title: 'Percentagem',
        type: 'numeric',
        minimum: 0,
        maximum: 100,
      }),
      201,
    );
    expect(numeric).toMatchObject({ type: 'numeric', minimum: 0, maximum: 100, values: [] });
    const letter = await json<Row>(
      await api.send('POST', '/api/score_scales', {
        title: 'Letras',
        type: 'letter',
        values: ['A', 'B', 'C'],
      }),
      201,
    );
    expect(letter).toMatchObject({ type: 'letter', minimum: null, maximum: null, values: ['A', 'B', 'C'] });
  });

  it('refuse a scale that is neither, naming the field (400), and write nothing', async () => {
    const before = await total('score_scales');
    const cases: [Row, string][] = [
      [{ title: 'Sem limites', type: 'numeric' }, 'minimum'],
      [{ title: 'Invertida', type: 'numeric', minimum: 20, maximum: 0 }, 'minimum'],
      [{ title: 'Mista', type: 'numeric', minimum: 0, maximum: 20, values: ['A'] }, 'values'],
      [{ title: 'Vazia', type: 'letter' }, 'values'],
      [{ title: 'Repetida', type: 'letter', values: ['A', 'A'] }, 'values'],
      [{ title: 'Mista', type: 'letter', values: ['A'], maximum: 5 }, 'minimum'],
      [{ title: 'Outra', type: 'percent', minimum: 0, maximum: 1 }, 'type'],
      [{ title: 'Longa', type: 'letter', values: Array.from({ length: 31 }, (_, i) => `N${i}`) }, 'values'],
    ];
    await expectRefused('score_scales', cases, before);
  });
});

describe('the gradebook scopes', () => {
  it('let a client with gradebook:read read both groups and write neither; gradebook:write writes', async () => {
    const reader = await registeredClient(api, { name: 'Gradebook reader', scopes: ['gradebook:read'] });
    const writer = await registeredClient(api, {
      name: 'Gradebook writer',
      scopes: ['gradebook:read', 'gradebook:write'],
    });
    const other = await registeredClient(api, { name: 'Roster reader', scopes: ['students:read'] });
    expect((await list('categories', reader.token)).length).toBeGreaterThan(0);
    expect((await list('score_scales', reader.token)).length).toBeGreaterThan(0);
    await expectProblem(await api.get('/api/categories', { token: other.token }), 403);
    const body = { title: 'Escala de 0 a 10', type: 'numeric', minimum: 0, maximum: 10 };
    await expectProblem(await api.send('POST', '/api/score_scales', body, { token: reader.token }), 403);
    await json(await api.send('POST', '/api/score_scales', body, { token: writer.token }), 201);
  });

  it('let every signed-in role read the setup whole, and none but an administrator change it', async () => {
    const expected = (await list('categories')).map((c) => c.category_id).sort();
    const [category] = await list('categories');
    const { category_id: id, created_at: _c, updated_at: _u, ...fields } = category as Row;
    for (const username of ['teacher', 'student', 'guardian', 'staff']) {
      const token = await api.personToken(username);
      const read = (await list('categories', token)).map((c) => c.category_id).sort();
      expect(read, username).toEqual(expected);
      const refused = await api.send('PUT', `/api/categories/${id}`, fields, { token });
      expect(refused.status, username).toBe(403);
    }
    const admin = await api.personToken('admin');
    await json(await api.send('PUT', `/api/categories/${id}`, fields, { token: admin }));
  });
});
