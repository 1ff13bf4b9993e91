// The OneRoster 1.2 Gradebook binding's categories (docs/oneroster.md, "Gradebook"), against 1EdTech's
// published OpenAPI file of the binding (test/fixtures/oneroster/): every response meets its schemas,
// the objects are the native categories, the binding's scopes guard them, paging, filter, sort and fields
// work as in rostering, and a delta read tells of a deleted category.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oneRosterScopes } from '../shared/domain/groups';
import { validResponse } from './support/oneroster-binding';
import { createRecord, removeRecord, startTestApi, type TestApi, waitForSyncLag } from './support/test-api';

const BASE = '/ims/oneroster/gradebook/v1p2';

let api: TestApi;
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
