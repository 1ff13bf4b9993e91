// Lookups by natural key, field selection and safe retries over HTTP (issue 14): what a nightly sync
// reaches for first. Lists keep the contract's envelope (contract section 4); errors are problems
// (section 5) and change nothing.
import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordItem } from '../shared/data/record-items';
import { FILTERED_READ } from '../shared/data/record-repository';
import { documentGroups, idFields, roleGroups } from '../shared/domain/groups';
import { expectProblem, json } from './support/contract';
import { documentBody, organisationBody, personBody } from './support/fixtures';
import { startTestApi, type TestApi } from './support/test-api';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.stop());

type Row = Record<string, unknown>;

const totals = async () =>
  (await json<{ counts: Record<string, number> }>(await api.get('/api/system'))).counts;

async function someStudentId(): Promise<string> {
  return (((await json<Row>(await api.get('/api/students?items_per_page=1'))).students as Row[])[0] as Row)
    .student_id as string;
}

const bodyFor = async (group: string): Promise<Row> =>
  group === 'entities'
    ? organisationBody()
    : group === 'tutors'
      ? { ...personBody('K'), student_ids: [await someStudentId()] }
      : personBody('K');

describe.each(roleGroups)('looking %s up', (group) => {
  const idField = idFields[group];

  it('by processnumber and by email, as an ordinary list envelope', async () => {
    const created = await json<Row>(await api.send('POST', `/api/${group}`, await bodyFor(group)), 201);
    const byNumber = await json<Row>(
      await api.get(`/api/${group}?processnumber=${encodeURIComponent(String(created.processnumber))}`),
    );
    expect(byNumber).toEqual({
      [group]: [created],
      page: 1,
      items_per_page: 50,
      total_items: 1,
      total_pages: 1,
    });
    const byEmail = await json<Row>(
      await api.get(`/api/${group}?email=${encodeURIComponent(String(created.email))}`),
    );
    expect((byEmail[group] as Row[]).map((r) => r[idField])).toEqual([created[idField]]);
    const both = await json<Row>(
      await api.get(`/api/${group}?processnumber=${created.processnumber}&email=someone-else@example.org`),
    );
    expect(both).toMatchObject({ [group]: [], total_items: 0, total_pages: 0 });
    const none = await json<Row>(await api.get(`/api/${group}?processnumber=NO-SUCH-NUMBER`));
    expect(none).toEqual({ [group]: [], page: 1, items_per_page: 50, total_items: 0, total_pages: 0 });
  });

  it('by a shared email, several records in id order, narrowed by ative', async () => {
    const email = `shared-${group}-${Date.now()}@example.org`;
    const made: Row[] = [];
    for (const ative of [true, false, true]) {
      made.push(
        await json<Row>(
          await api.send('POST', `/api/${group}`, { ...(await bodyFor(group)), email, ative }),
          201,
        ),
      );
    }
    const ids = made.map((r) => r[idField] as string).sort();
    const all = await json<Row>(await api.get(`/api/${group}?email=${encodeURIComponent(email)}`));
    expect((all[group] as Row[]).map((r) => r[idField])).toEqual(ids);
    expect(all.total_items).toBe(3);
    const inactive = await json<Row>(
      await api.get(`/api/${group}?email=${encodeURIComponent(email)}&ative=false`),
    );
    expect((inactive[group] as Row[]).map((r) => r[idField])).toEqual([made[1]?.[idField]]);
    const paged = await json<Row>(
      await api.get(`/api/${group}?email=${encodeURIComponent(email)}&items_per_page=2`),
    );
    expect((paged[group] as Row[]).length).toBe(2);
    const rest = await json<Row>(
      await api.get(`/api/${group}?email=${encodeURIComponent(email)}&cursor=${paged.next_cursor}`),
    );
    expect([...(paged[group] as Row[]), ...(rest[group] as Row[])].map((r) => r[idField])).toEqual(ids);
  });

  it('by ative alone, walked with cursors, without totals', async () => {
    const first = await json<Row>(await api.get(`/api/${group}?ative=false&items_per_page=5`));
    expect(first).not.toHaveProperty('total_items');
    for (const record of first[group] as Row[]) expect(record.ative).toBe(false);
    await expectProblem(await api.get(`/api/${group}?ative=false&page=2`), 400);
    await expectProblem(await api.get(`/api/${group}?ative=yes`), 400);
  });
});

describe('lookups refused', () => {
  it('answers 400 to an empty value, a lookup with updated_since, and processnumber on entities', async () => {
    await expectProblem(await api.get('/api/students?processnumber='), 400);
    await expectProblem(
      await api.get('/api/students?email=a@b.example&updated_since=2020-01-01T00:00:00Z'),
      400,
    );
    await expectProblem(await api.get('/api/entities?processnumber=A1'), 400);
  });

  it('finds for a guardian only the students in their care, whatever they look up', async () => {
    const token = await api.personToken('guardian');
    const mine = await json<Row>(await api.get('/api/students?items_per_page=500', { token }));
    const child = (mine.students as Row[])[0] as Row;
    const found = await json<Row>(
      await api.get(`/api/students?processnumber=${encodeURIComponent(String(child.processnumber))}`, {
        token,
      }),
    );
    expect(found.students).toEqual([child]);
    const everyone = await json<Row>(await api.get('/api/students?items_per_page=500'));
    const ids = new Set((mine.students as Row[]).map((s) => s.student_id));
    const other = (everyone.students as Row[]).find((s) => !ids.has(s.student_id)) as Row;
    for (const query of [
      `processnumber=${encodeURIComponent(String(other.processnumber))}`,
      `email=${encodeURIComponent(String(other.email))}`,
    ]) {
      const page = await json<Row>(await api.get(`/api/students?${query}`, { token }));
      expect((page.students as Row[]).map((s) => s.student_id)).not.toContain(other.student_id);
    }
  });

  it('answers 400 to email and ative on groups whose records have no such field', async () => {
    for (const group of ['academic_sessions', 'courses', 'classes', 'enrollments']) {
      for (const query of ['email=a@b.example', 'ative=true']) {
        const problem = await expectProblem(await api.get(`/api/${group}?${query}`), 400);
        expect(problem.errors?.map((e) => e.name)).toEqual([query.split('=')[0]]);
      }
    }
    await expectProblem(await api.get('/api/entities?ative=true'), 400);
  });

  it('finds an entity by its email', async () => {
    const created = await json<Row>(await api.send('POST', '/api/entities', organisationBody()), 201);
    const found = await json<Row>(
      await api.get(`/api/entities?email=${encodeURIComponent(String(created.email))}`),
    );
    expect(found.entities).toEqual([created]);
  });
});

describe('fields', () => {
  it('selects fields on lists and gets, always with the id, and moves fewer bytes', async () => {
    const whole = await api.get('/api/students?items_per_page=50');
    const wholeText = await whole.text();
    const slim = await api.get('/api/students?items_per_page=50&fields=name,processnumber,email');
    const slimText = await slim.text();
    expect(slim.status).toBe(200);
    const page = JSON.parse(slimText) as { students: Row[]; total_items: number };
    expect(page.students).toHaveLength(50);
    for (const record of page.students)
      expect(Object.keys(record)).toEqual(['student_id', 'processnumber', 'email', 'name']);
    expect(Buffer.byteLength(slimText)).toBeLessThan(Buffer.byteLength(wholeText) / 3);
    const id = page.students[0]?.student_id as string;
    const one = await json<Row>(await api.get(`/api/students/${id}?fields=photobase64`));
    expect(Object.keys(one)).toEqual(['student_id', 'photobase64']);
    const changes = await json<Row>(
      await api.get('/api/students?updated_since=2000-01-01T00:00:00Z&items_per_page=3&fields=name'),
    );
    for (const record of changes.students as Row[])
      expect(Object.keys(record)).toEqual(['student_id', 'name']);
  });

  it('refuses unknown field names with 400', async () => {
    const problem = await expectProblem(await api.get('/api/students?fields=name,nome'), 400);
    expect(problem.errors?.[0]).toMatchObject({ name: 'fields', in: 'query' });
    expect(problem.errors?.[0]?.reason).toContain('unknown: nome');
    await expectProblem(await api.get(`/api/students/${await someStudentId()}?fields=student_ids`), 400);
    await expectProblem(await api.get('/api/students?fields='), 400);
  });
});

// Person records: the groups whose POSTs include adding a document.
describe.each(documentGroups)('retrying a POST to %s', (group) => {
  const idField = idFields[group];

  it('with the same Idempotency-Key and body gets the first response, and one record', async () => {
    const body = await bodyFor(group);
    const key = crypto.randomUUID();
    const before = await totals();
    const first = await api.send('POST', `/api/${group}`, body, { headers: { 'idempotency-key': key } });
    const created = await json<Row>(first, 201);
    // The same body with its fields in another order is the same body.
    const reordered = Object.fromEntries(Object.entries(body).reverse());
    const again = await api.send('POST', `/api/${group}`, reordered, {
      headers: { 'idempotency-key': `"${key}"` },
    });
    expect(await json<Row>(again, 201)).toEqual(created);
    expect(again.headers.get('location')).toBe(first.headers.get('location'));
    expect(again.headers.get('etag')).toBe(first.headers.get('etag'));
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    const after = await totals();
    expect(after[group]).toBe((before[group] ?? 0) + 1);

    const other = await expectProblem(
      await api.send(
        'POST',
        `/api/${group}`,
        { ...body, name: 'Outro Nome' },
        { headers: { 'idempotency-key': key } },
      ),
      422,
    );
    expect(other.errors?.[0]?.name).toBe('Idempotency-Key');
    expect(await totals()).toEqual(after);

    const path = `/api/${group}/${created[idField]}/documents`;
    const docKey = crypto.randomUUID();
    const added = await api.send('POST', path, documentBody, { headers: { 'idempotency-key': docKey } });
    const withDocument = await json<Row>(added, 201);
    const addedAgain = await api.send('POST', path, documentBody, { headers: { 'idempotency-key': docKey } });
    expect(await json<Row>(addedAgain, 201)).toEqual(withDocument);
    const read = await json<Row>(await api.get(`/api/${group}/${created[idField]}`));
    expect((read.documents as Row[]).length).toBe((created.documents as Row[]).length + 1);
  });

  it('answers two requests with one key sent together with one record and one response', async () => {
    const body = await bodyFor(group);
    const headers = { 'idempotency-key': crypto.randomUUID() };
    const before = await totals();
    const [a, b] = await Promise.all([
      api.send('POST', `/api/${group}`, body, { headers }),
      api.send('POST', `/api/${group}`, body, { headers }),
    ]);
    expect(await json<Row>(a as Response, 201)).toEqual(await json<Row>(b as Response, 201));
    expect((await totals())[group]).toBe((before[group] ?? 0) + 1);
  });

  it('refuses a malformed key with 400 and writes nothing', async () => {
    const before = await totals();
    await expectProblem(
      await api.send('POST', `/api/${group}`, await bodyFor(group), {
        headers: { 'idempotency-key': 'x'.repeat(300) },
      }),
      400,
    );
    expect(await totals()).toEqual(before);
  });
});

describe('a retried POST without a key', () => {
  it.each(roleGroups)(
    'to %s gets 409 naming the record that holds the processnumber, with its Location',
    async (group) => {
      const body = await bodyFor(group);
      const created = await json<Row>(await api.send('POST', `/api/${group}`, body), 201);
      const before = await totals();
      const retry = await api.send('POST', `/api/${group}`, body);
      const location = retry.headers.get('location');
      const problem = await expectProblem(retry, 409);
      const id = created[idFields[group]] as string;
      expect((problem as Row)[idFields[group]]).toBe(id);
      expect(location).toBe(`${api.url}/api/${group}/${id}`);
      expect(await totals()).toEqual(before);
    },
  );
});

// Last in the file: it fills the staffs with active records ahead of the seeded ones.
describe('ative alone on a large group', () => {
  it('reads a bounded number of records a request, and goes on from where it stopped', async () => {
    const { staffs } = await json<{ staffs: Row[] }>(await api.get('/api/staffs?items_per_page=500'));
    const inactive = staffs.filter((staff) => staff.ative === false).map((staff) => staff.staff_id);
    expect(inactive.length).toBeGreaterThan(0);
    const model = (await api.records.get('staffs', (staffs[0] as Row).staff_id as string))?.record as Row;
    // More active records than one request reads, all sorting before the seeded ones.
    const filler = Array.from({ length: FILTERED_READ.records + 100 }, (_, i) =>
      recordItem(
        'staffs',
        {
          ...model,
          staff_id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
          ative: true,
        } as never,
        1,
      ),
    );
    for (let i = 0; i < filler.length; i += 25 * 8) {
      await Promise.all(
        Array.from({ length: 8 }, (_, j) => filler.slice(i + j * 25, i + (j + 1) * 25))
          .filter((batch) => batch.length > 0)
          .map((batch) =>
            api.db.send(
              new BatchWriteCommand({
                RequestItems: { [api.tableName]: batch.map((Item) => ({ PutRequest: { Item } })) },
              }),
            ),
          ),
      );
    }
    const first = await json<Row>(await api.get('/api/staffs?ative=false&items_per_page=5'));
    expect(first.staffs).toEqual([]);
    expect(first.next_cursor).toEqual(expect.any(String));
    const found: unknown[] = [];
    let cursor = first.next_cursor as string | undefined;
    for (let requests = 0; cursor !== undefined; requests++) {
      expect(requests).toBeLessThan(20);
      const page = await json<Row>(
        await api.get(`/api/staffs?ative=false&items_per_page=5&cursor=${encodeURIComponent(cursor)}`),
      );
      found.push(...(page.staffs as Row[]).map((staff) => staff.staff_id));
      cursor = page.next_cursor as string | undefined;
    }
    expect(found).toEqual(inactive);
  });
});
