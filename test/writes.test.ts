// Writing records over HTTP (issue "Writing records", deliverables 1 to 5): every operation of every
// group, its validation, integrity rules and conditional requests.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { idFields, personGroups, recordGroups, roleGroups } from '../shared/domain/groups';
import { LIMITS } from '../shared/domain/limits';
import { QUOTE_LENGTH } from '../shared/http/quote';
import { recordSchemas } from '../shared/schemas/records';
import { expectProblem, json } from './support/contract';
import { documentBody, organisationBody, personBody } from './support/fixtures';
import { startTestApi, type TestApi, waitForSyncLag } from './support/test-api';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.stop());

type Row = Record<string, unknown>;

async function someStudentId(): Promise<string> {
  return (((await json<Row>(await api.get('/api/students?items_per_page=1'))).students as Row[])[0] as Row)
    .student_id as string;
}

const bodyFor = async (group: string): Promise<Row> =>
  group === 'entities'
    ? organisationBody()
    : group === 'tutors'
      ? { ...personBody('E'), student_ids: [await someStudentId()] }
      : personBody();

const totals = async () =>
  (await json<{ counts: Record<string, number> }>(await api.get('/api/system'))).counts;

// The rostering groups' writes are in rostering.test.ts.
describe.each(personGroups)('writing %s', (group) => {
  const idField = idFields[group];

  it('creates with 201, Location and ETag, and the record reads back the same', async () => {
    const before = await totals();
    const body = await bodyFor(group);
    const response = await api.send('POST', `/api/${group}`, body);
    const created = await json<Row>(response, 201);
    expect(recordSchemas[group].safeParse(created).error).toBeUndefined();
    const id = created[idField] as string;
    expect(response.headers.get('location')).toBe(`${api.url}/api/${group}/${id}`);
    expect(response.headers.get('etag')).toBe('"1"');
    for (const [field, value] of Object.entries(body)) expect(created[field]).toEqual(value);
    const read = await api.get(`/api/${group}/${id}`);
    expect(read.headers.get('etag')).toBe('"1"');
    expect(await json(read)).toEqual(created);
    const after = await totals();
    expect(after[group]).toBe((before[group] ?? 0) + 1);
    if (group !== 'entities') {
      expect(after.entities).toBe((before.entities ?? 0) + 1);
      const entity = await json<Row>(await api.get(`/api/entities/${created.entity_id}`));
      expect(entity).toMatchObject({
        entity_type: 'person',
        name: body.name,
        roles: [{ role: group.slice(0, -1), id }],
      });
    }
  });

  it('replaces with PUT, honouring If-Match, and answers 304 to If-None-Match', async () => {
    const created = await json<Row>(await api.send('POST', `/api/${group}`, await bodyFor(group)), 201);
    const id = created[idField] as string;
    const path = `/api/${group}/${id}`;
    expect((await api.get(path, { headers: { 'if-none-match': '"1"' } })).status).toBe(304);
    const next = { ...(await bodyFor(group)), name: 'Nome Substituído' };
    const replaced = await api.send('PUT', path, next, { headers: { 'if-match': '"1"' } });
    expect(replaced.headers.get('etag')).toBe('"2"');
    const record = await json<Row>(replaced);
    expect(record).toMatchObject({ name: 'Nome Substituído', [idField]: id, created_at: created.created_at });
    expect(record.updated_at).not.toBe(created.updated_at);
    const stale = await api.send('PUT', path, next, { headers: { 'if-match': '"1"' } });
    expect(stale.headers.get('etag')).toBe('"2"');
    await expectProblem(stale, 412);
    expect((await api.get(path, { headers: { 'if-none-match': '"1"' } })).status).toBe(200);
  });

  it('adds an identification document with 201 and the updated record', async () => {
    const created = await json<Row>(await api.send('POST', `/api/${group}`, await bodyFor(group)), 201);
    const path = `/api/${group}/${created[idField]}`;
    const response = await api.send('POST', `${path}/documents`, documentBody);
    const updated = await json<Row>(response, 201);
    expect(response.headers.get('etag')).toBe('"2"');
    expect(updated.documents).toEqual([...(created.documents as Row[]), documentBody]);
    const invalid = await expectProblem(
      await api.send('POST', `${path}/documents`, { ...documentBody, init_date: '2040-01-01' }),
      400,
    );
    expect(invalid.errors).toContainEqual({
      name: 'init_date',
      in: 'body',
      reason: 'must not be after end_date',
    });
  });

  it('deletes with 204; the id then answers 410 and appears at /deleted', async () => {
    const before = await totals();
    const created = await json<Row>(await api.send('POST', `/api/${group}`, await bodyFor(group)), 201);
    const id = created[idField] as string;
    await expectProblem(
      await api.send('DELETE', `/api/${group}/${id}`, undefined, { headers: { 'if-match': '"7"' } }),
      412,
    );
    const deleted = await api.send('DELETE', `/api/${group}/${id}`);
    expect(deleted.status).toBe(204);
    expect(await deleted.text()).toBe('');
    await expectProblem(await api.get(`/api/${group}/${id}`), 410);
    await expectProblem(await api.send('DELETE', `/api/${group}/${id}`), 410);
    await expectProblem(await api.send('PUT', `/api/${group}/${id}`, await bodyFor(group)), 410);
    await waitForSyncLag();
    const feed = await json<Row>(
      await api.get(`/api/${group}/deleted?since=${encodeURIComponent(String(created.created_at))}`),
    );
    expect(feed.deleted).toContainEqual({ [idField]: id, deleted_at: expect.any(String) });
    const after = await totals();
    expect(after[group]).toBe(before[group]);
    if (group !== 'entities') {
      const entity = await json<Row>(await api.get(`/api/entities/${created.entity_id}`));
      expect(entity.roles).toEqual([]);
    }
  });

  it('answers 404 to writes on an unknown id', async () => {
    const unknown = `/api/${group}/00000000-0000-4000-8000-000000000000`;
    await expectProblem(await api.send('PUT', unknown, await bodyFor(group)), 404);
    await expectProblem(await api.send('DELETE', unknown), 404);
    await expectProblem(await api.send('POST', `${unknown}/documents`, documentBody), 404);
  });
});

describe('validation', () => {
  it('lists every bad field, hints at misspelt ones, and writes nothing', async () => {
    const before = await totals();
    const { ative: _ative, ...rest } = personBody();
    const problem = await expectProblem(
      await api.send('POST', '/api/students', {
        ...rest,
        active: true,
        email: 'nope',
        birth_date: '2019-02-29',
      }),
      400,
    );
    expect(problem.errors).toEqual(
      expect.arrayContaining([
        { name: 'active', in: 'body', reason: 'unknown field; did you mean ative?' },
        { name: 'ative', in: 'body', reason: 'is required' },
        { name: 'email', in: 'body', reason: 'must be an e-mail address' },
        { name: 'birth_date', in: 'body', reason: 'must be a date that exists, written YYYY-MM-DD' },
      ]),
    );
    expect(await totals()).toEqual(before);
  });

  it('accepts bank_accounts as bankAccounts and refuses bad IBANs', async () => {
    const { bankAccounts, ...rest } = personBody();
    const created = await json<Row>(
      await api.send('POST', '/api/teachers', { ...rest, bank_accounts: bankAccounts }),
      201,
    );
    expect(created.bankAccounts).toEqual(bankAccounts);
    expect(created).not.toHaveProperty('bank_accounts');
    const bad = await expectProblem(
      await api.send('POST', '/api/teachers', {
        ...rest,
        bankAccounts: [{ back_account_number: 'PT50000201231234567890155' }],
      }),
      400,
    );
    expect(bad.errors?.[0]?.name).toBe('bankAccounts[0].back_account_number');
  });

  it('refuses bodies that are not JSON objects with 400, other media types with 415, and large ones with 413', async () => {
    await expectProblem(await api.send('POST', '/api/students', '{"processnumber":'), 400);
    await expectProblem(await api.send('POST', '/api/students', '[]'), 400);
    await expectProblem(await api.send('POST', '/api/students', 'null'), 400);
    await expectProblem(await api.send('POST', '/api/students'), 400);
    await expectProblem(
      await api.send('POST', '/api/students', 'processnumber=A1', {
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      }),
      415,
    );
    const huge = { ...personBody(), photobase64: 'A'.repeat(500 * 1024) };
    await expectProblem(await api.send('POST', '/api/students', huge), 413);
    const bigPhoto = { ...personBody(), photobase64: 'A'.repeat(300 * 1024) };
    const problem = await expectProblem(await api.send('POST', '/api/students', bigPhoto), 400);
    expect(problem.errors?.[0]?.name).toBe('photobase64');
  });

  it('refuses an unknown field of 380,000 characters quickly, quoting only its start', async () => {
    const before = await totals();
    const name = `active${'x'.repeat(380_000)}`;
    const started = performance.now();
    const response = await api.send('POST', '/api/students', { ...personBody(), [name]: true });
    const took = performance.now() - started;
    const text = await response.clone().text();
    const problem = await expectProblem(response, 400);
    expect(problem.errors).toEqual([
      { name: `${name.slice(0, QUOTE_LENGTH)}…`, in: 'body', reason: 'unknown field' },
    ]);
    expect(text.length).toBeLessThan(1_000);
    // Generous, to hold on a loaded machine: the refusal used to take seconds of CPU.
    expect(took).toBeLessThan(1_000);
    expect(await totals()).toEqual(before);
  });

  it('quotes only the start of an unknown query parameter', async () => {
    const name = 'q'.repeat(5_000);
    const problem = await expectProblem(await api.get(`/api/students?${name}=1`), 400);
    expect(problem.errors?.[0]?.name).toBe(`${'q'.repeat(QUOTE_LENGTH)}…`);
    expect(problem.detail.length).toBeLessThan(200);
  });

  it('refuses a malformed If-Match', async () => {
    const id = await someStudentId();
    await expectProblem(
      await api.send('DELETE', `/api/students/${id}`, undefined, { headers: { 'if-match': 'v1' } }),
      400,
    );
  });
});

describe('integrity', () => {
  it('keeps processnumber unique within a group, on create and on replace', async () => {
    const first = await json<Row>(await api.send('POST', '/api/staffs', personBody('F')), 201);
    const clash = await expectProblem(
      await api.send('POST', '/api/staffs', { ...personBody('F'), processnumber: first.processnumber }),
      409,
    );
    expect(clash.errors?.[0]).toMatchObject({ name: 'processnumber', in: 'body' });
    expect(
      (await api.send('POST', '/api/teachers', { ...personBody(), processnumber: first.processnumber }))
        .status,
    ).toBe(201);
    const second = await json<Row>(await api.send('POST', '/api/staffs', personBody('F')), 201);
    await expectProblem(
      await api.send('PUT', `/api/staffs/${second.staff_id}`, {
        ...personBody('F'),
        processnumber: first.processnumber,
      }),
      409,
    );
    const renamed = { ...personBody('F'), processnumber: `${second.processnumber}-2` };
    expect((await api.send('PUT', `/api/staffs/${second.staff_id}`, renamed)).status).toBe(200);
    const reuse = { ...personBody('F'), processnumber: second.processnumber };
    expect((await api.send('POST', '/api/staffs', reuse)).status).toBe(201);
  });

  it('joins a given entity, refuses organisations and unknown ones, and keeps a record with its entity', async () => {
    const teacher = await json<Row>(await api.send('POST', '/api/teachers', personBody()), 201);
    const tutor = await json<Row>(
      await api.send('POST', '/api/tutors', {
        ...personBody('E'),
        entity_id: teacher.entity_id,
        student_ids: [await someStudentId()],
      }),
      201,
    );
    expect(tutor.entity_id).toBe(teacher.entity_id);
    const entity = await json<Row>(await api.get(`/api/entities/${teacher.entity_id}`));
    expect(entity.roles).toEqual([
      { role: 'teacher', id: teacher.teacher_id },
      { role: 'tutor', id: tutor.tutor_id },
    ]);
    const organisation = await json<Row>(await api.send('POST', '/api/entities', organisationBody()), 201);
    for (const entityId of [organisation.entity_id, '00000000-0000-4000-8000-000000000000']) {
      const problem = await expectProblem(
        await api.send('POST', '/api/staffs', { ...personBody('F'), entity_id: entityId }),
        400,
      );
      expect(problem.errors?.[0]?.name).toBe('entity_id');
    }
    const moved = await expectProblem(
      await api.send('PUT', `/api/teachers/${teacher.teacher_id}`, {
        ...personBody(),
        entity_id: organisation.entity_id,
      }),
      400,
    );
    expect(moved.errors?.map((e) => e.name)).toEqual(['entity_id']);
  });

  it('keeps a student in the care of at most 20 tutors: the next is refused with 409, naming the student', async () => {
    const student = await json<Row>(await api.send('POST', '/api/students', personBody('A')), 201);
    const tutor = () =>
      api.send('POST', '/api/tutors', { ...personBody('E'), student_ids: [student.student_id] });
    const tutors: Row[] = [];
    for (let i = 0; i < LIMITS.tutorsPerStudent; i++) tutors.push(await json<Row>(await tutor(), 201));
    const before = await api.records.count('tutors');
    const refused = await expectProblem(await tutor(), 409);
    expect(refused.errors?.[0]).toMatchObject({ name: 'student_ids' });
    expect(refused.detail).toContain(String(student.student_id));
    expect(await api.records.count('tutors')).toBe(before);
    for (const t of tutors) await api.send('DELETE', `/api/tutors/${t.tutor_id}`);
    await api.send('DELETE', `/api/students/${student.student_id}`);
  });

  it("refuses to delete an entity with roles, or a student still in a tutor's care", async () => {
    const student = await json<Row>(await api.send('POST', '/api/students', personBody('A')), 201);
    await expectProblem(await api.send('DELETE', `/api/entities/${student.entity_id}`), 409);
    const tutor = await json<Row>(
      await api.send('POST', '/api/tutors', { ...personBody('E'), student_ids: [student.student_id] }),
      201,
    );
    await expectProblem(await api.send('DELETE', `/api/students/${student.student_id}`), 409);
    const other = await someStudentId();
    expect(
      (await api.send('PUT', `/api/tutors/${tutor.tutor_id}`, { ...personBody('E'), student_ids: [other] }))
        .status,
    ).toBe(200);
    expect((await api.send('DELETE', `/api/students/${student.student_id}`)).status).toBe(204);
    expect((await api.send('DELETE', `/api/entities/${student.entity_id}`)).status).toBe(204);
  });

  it('refuses a tutor of students that do not exist', async () => {
    const before = await totals();
    const problem = await expectProblem(
      await api.send('POST', '/api/tutors', {
        ...personBody('E'),
        student_ids: ['00000000-0000-4000-8000-000000000000'],
      }),
      400,
    );
    expect(problem.errors?.[0]?.name).toBe('student_ids');
    expect(await totals()).toEqual(before);
  });
});

describe('counts', () => {
  it('equal a fresh count of every group after all the writes above', async () => {
    const counts = await totals();
    for (const group of recordGroups) {
      let seen = 0;
      let query = 'items_per_page=500';
      for (;;) {
        const page = await json<Row>(await api.get(`/api/${group}?${query}`));
        seen += (page[group] as Row[]).length;
        if (!page.next_cursor) break;
        query = `items_per_page=500&cursor=${page.next_cursor}`;
      }
      expect(seen, group).toBe(counts[group]);
    }
    expect(roleGroups.length).toBe(4);
  });
});
