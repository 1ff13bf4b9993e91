// What integrators do first (issue 14): a record read with GET goes back with PUT unchanged, and every
// response names its request (contract section 5: "it carries an id that the logs carry too").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { idFields, recordGroups } from '../shared/domain/groups';
import { expectProblem, json } from './support/contract';
import { startTestApi, type TestApi } from './support/test-api';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.stop());

type Row = Record<string, unknown>;

const first = async (group: string): Promise<Row> =>
  ((await json<Row>(await api.get(`/api/${group}?items_per_page=1`)))[group] as Row[])[0] as Row;

const totals = async () =>
  (await json<{ counts: Record<string, number> }>(await api.get('/api/system'))).counts;

describe.each(recordGroups)('a %s read with GET and sent back with PUT', (group) => {
  const idField = idFields[group];

  it('is accepted as it is, with If-Match, and changes only the version and updated_at', async () => {
    const { [idField]: id } = await first(group);
    const path = `/api/${group}/${id}`;
    const read = await api.get(path);
    const tag = read.headers.get('etag') as string;
    const record = await json<Row>(read);
    const put = await api.send('PUT', path, record, { headers: { 'if-match': tag } });
    const replaced = await json<Row>(put);
    expect(put.headers.get('etag')).toBe(`"${Number(JSON.parse(tag)) + 1}"`);
    const { updated_at: _before, ...unchanged } = record;
    const { updated_at: after, ...kept } = replaced;
    expect(kept).toEqual(unchanged);
    expect(after).not.toBe(record.updated_at);
  });

  it('refuses another id in the body with 400 naming it, and changes nothing', async () => {
    const { [idField]: id } = await first(group);
    const path = `/api/${group}/${id}`;
    const read = await api.get(path);
    const tag = read.headers.get('etag') as string;
    const record = await json<Row>(read);
    const other = '00000000-0000-4000-8000-000000000000';
    const problem = await expectProblem(
      await api.send('PUT', path, { ...record, [idField]: other }, { headers: { 'if-match': tag } }),
      400,
    );
    expect(problem.errors).toEqual([
      { name: idField, in: 'body', reason: `must be ${id}, the id in the path, or left out` },
    ]);
    expect((await api.get(path)).headers.get('etag')).toBe(tag);
  });

  it('refuses a changed read-only field, naming it, and never hints at the field it refuses', async () => {
    const { [idField]: id } = await first(group);
    const path = `/api/${group}/${id}`;
    const record = await json<Row>(await api.get(path));
    const problem = await expectProblem(
      await api.send('PUT', path, { ...record, created_at: '2000-01-01T00:00:00.000Z' }),
      400,
    );
    expect(problem.errors?.map((e) => e.name)).toEqual(['created_at']);
    expect(await json<Row>(await api.get(path))).toEqual(record);
    // On create the id is not the client's to give: refused without a hint that names it again.
    const { [idField]: _id, created_at: _c, updated_at: _u, ...fields } = record;
    const before = await totals();
    const created = await expectProblem(
      await api.send('POST', `/api/${group}`, { ...fields, [idField]: id }),
      400,
    );
    for (const error of created.errors ?? [])
      expect(error.reason).not.toContain(`did you mean ${error.name}?`);
    expect(created.errors?.map((e) => e.name)).toContain(idField);
    expect(await totals()).toEqual(before);
  });
});

describe('x-request-id', () => {
  const requestIdPattern = /^[0-9a-f-]{36}$/;

  it('is on a success, a problem, a 404 and a 405, and is the problem body request_id', async () => {
    const ok = await api.get('/api/system');
    expect(ok.status).toBe(200);
    expect(ok.headers.get('x-request-id')).toMatch(requestIdPattern);
    for (const [response, status] of [
      [await api.get('/api/students?items_per_page=0'), 400],
      [await api.get('/api/students', { token: null }), 401],
      [await api.get('/api/nowhere'), 404],
      [await api.send('PATCH', '/api/students'), 405],
    ] as const) {
      const id = response.headers.get('x-request-id');
      expect(id).toMatch(requestIdPattern);
      const problem = await expectProblem(response, status);
      expect(problem.request_id).toBe(id);
    }
  });

  it('is a new one for each request, whatever the client sends', async () => {
    const a = await api.get('/api/system', { headers: { 'x-request-id': 'mine' } });
    const b = await api.get('/api/system');
    expect(a.headers.get('x-request-id')).not.toBe('mine');
    expect(a.headers.get('x-request-id')).not.toBe(b.headers.get('x-request-id'));
  });
});
