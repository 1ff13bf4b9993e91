// What integrators do first (issue 14): a record read with GET goes back with PUT unchanged, and every
// response names its request (contract section 5: "it carries an id that the logs carry too").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentGroups, idFields, isRoleGroup, recordGroups } from '../shared/domain/groups';
import { expectProblem, json } from './support/contract';
import { documentBody, personBody } from './support/fixtures';
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

  // Only a person's role records carry an entity_id of their own to refuse.
  if (isRoleGroup(group))
    it('refuses another entity_id with 400 naming it, and changes nothing', async () => {
      const { [idField]: id } = await first(group);
      const path = `/api/${group}/${id}`;
      const read = await api.get(path);
      const tag = read.headers.get('etag') as string;
      const record = await json<Row>(read);
      const { entities } = await json<{ entities: Row[] }>(await api.get('/api/entities?items_per_page=2'));
      const other = entities.find((entity) => entity.entity_id !== record.entity_id)?.entity_id;
      const problem = await expectProblem(
        await api.send('PUT', path, { ...record, entity_id: other }, { headers: { 'if-match': tag } }),
        400,
      );
      expect(problem.errors).toEqual([
        { name: 'entity_id', in: 'body', reason: `must be ${record.entity_id} or left out` },
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

describe.each(documentGroups)('a %s read masked and sent back with PUT', (group) => {
  const idField = idFields[group];
  type Numbered = Row & {
    documents: Row[];
    bankAccounts: Row[];
  };
  const token = () => api.token(`${group}:read ${group}:write`);
  const stored = async (id: string) => (await api.records.get(group, id))?.record as Numbered;

  /** A record with two documents and a bank account, read back without the sensitive scope. */
  async function masked() {
    const person = personBody('RT');
    const { student_id: studentId } = await first('students');
    const body =
      group === 'entities'
        ? { entity_type: 'person', name: person.name, email: person.email, bankAccounts: person.bankAccounts }
        : { ...person, ...(group === 'tutors' ? { student_ids: [studentId] } : {}) };
    const made = await json<Row>(
      await api.send('POST', `/api/${group}`, { ...body, documents: [...person.documents, documentBody] }),
      201,
    );
    const path = `/api/${group}/${made[idField]}`;
    const read = await api.get(path, { token: await token() });
    const tag = read.headers.get('etag') as string;
    return { path, id: made[idField] as string, tag, record: await json<Numbered>(read) };
  }
  const reread = async (path: string) => json<Numbered>(await api.get(path, { token: await token() }));

  it('keeps the stored numbers when the masked ones come back unchanged', async () => {
    const { path, id, tag, record } = await masked();
    const before = await stored(id);
    expect(record.bankAccounts[0]?.back_account_number).toBe('****0154');
    const put = await api.send('PUT', path, record, { token: await token(), headers: { 'if-match': tag } });
    expect(await json<Numbered>(put)).toMatchObject({
      documents: record.documents,
      bankAccounts: record.bankAccounts,
    });
    const after = await stored(id);
    expect(after.documents).toEqual(before.documents);
    expect(after.bankAccounts).toEqual(before.bankAccounts);
  });

  it('gives each entry back its own number when entries are changed, reordered or removed', async () => {
    const { path, id, record } = await masked();
    const before = (await stored(id)).documents as [Row, Row];
    const changed = { ...before[0], end_date: '2030-01-09' };
    const [first, second] = record.documents as [Row, Row];
    await json(
      await api.send(
        'PUT',
        path,
        { ...record, documents: [{ ...first, end_date: '2030-01-09' }, second] },
        { token: await token() },
      ),
    );
    expect((await stored(id)).documents).toEqual([changed, before[1]]);
    const read = await reread(path);
    await json(
      await api.send(
        'PUT',
        path,
        { ...read, documents: [read.documents[1], read.documents[0]] },
        { token: await token() },
      ),
    );
    expect((await stored(id)).documents).toEqual([before[1], changed]);
    const again = await reread(path);
    await json(
      await api.send('PUT', path, { ...again, documents: [again.documents[1]] }, { token: await token() }),
    );
    expect((await stored(id)).documents).toEqual([changed]);
  });

  it('takes a new IBAN sent in full', async () => {
    const { path, id, tag, record } = await masked();
    const iban = 'GB82WEST12345698765432';
    const bankAccounts = [{ ...record.bankAccounts[0], back_account_number: iban }];
    await json(
      await api.send(
        'PUT',
        path,
        { ...record, bankAccounts },
        { token: await token(), headers: { 'if-match': tag } },
      ),
    );
    expect((await stored(id)).bankAccounts[0]?.back_account_number).toBe(iban);
  });

  it('refuses a masked value that matches no stored one with 400 naming it, and changes nothing', async () => {
    const { path, id, tag, record } = await masked();
    const before = await stored(id);
    const documents = [
      record.documents[0],
      { ...record.documents[1], identification_document_value: '****9999' },
    ];
    const bankAccounts = [{ ...record.bankAccounts[0], back_account_number: '****0155' }];
    const problem = await expectProblem(
      await api.send(
        'PUT',
        path,
        { ...record, documents, bankAccounts },
        { token: await token(), headers: { 'if-match': tag } },
      ),
      400,
    );
    expect(problem.errors?.map((e) => e.name)).toEqual([
      'documents[1].identification_document_value',
      'bankAccounts[0].back_account_number',
    ]);
    expect(await stored(id)).toEqual(before);
    expect((await api.get(path)).headers.get('etag')).toBe(tag);
  });

  it('refuses masked values in a create, naming them, and creates nothing', async () => {
    const { record } = await masked();
    const { [idField]: _id, created_at: _c, updated_at: _u, roles: _r, entity_id: _e, ...fields } = record;
    const body = {
      ...fields,
      ...('processnumber' in fields ? { processnumber: personBody().processnumber } : {}),
    };
    const before = await totals();
    const problem = await expectProblem(await api.send('POST', `/api/${group}`, body), 400);
    expect(problem.errors?.map((e) => e.name)).toEqual([
      'documents[0].identification_document_value',
      'documents[1].identification_document_value',
      'bankAccounts[0].back_account_number',
    ]);
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
