// Every record group over HTTP: list envelopes and every field against the specification's schemas
// (interface-spec sections 2.1 to 2.7, contract sections 2 and 3), and get by id.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { idFields, recordGroups } from '../shared/domain/groups';
import { listEnvelope, recordSchemas } from '../shared/schemas/records';
import { expectProblem, json } from './support/contract';
import { startTestApi, type TestApi } from './support/test-api';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.stop());

type Row = Record<string, unknown>;

describe.each(recordGroups)('GET /api/%s', (group) => {
  const idField = idFields[group];

  it('returns the list envelope with records that match the specification field by field', async () => {
    const body = await json<Row>(await api.get(`/api/${group}?items_per_page=500`));
    const parsed = listEnvelope(group, recordSchemas[group]).safeParse(body);
    expect(parsed.error).toBeUndefined();
    expect(body.page).toBe(1);
    expect(body.items_per_page).toBe(500);
    const items = body[group] as Row[];
    // Every group fits one page of 500 but the demo's enrollments, which take three.
    const total = body.total_items as number;
    expect(items.length).toBe(Math.min(500, total));
    expect(body.total_pages).toBe(Math.ceil(total / 500));
    expect(Boolean(body.next_cursor)).toBe(total > 500);
  });

  it('lists in id order, the documented stable order', async () => {
    const body = await json<Row>(await api.get(`/api/${group}?items_per_page=500`));
    const ids = (body[group] as Row[]).map((r) => r[idField] as string);
    expect(ids).toEqual([...ids].sort());
  });

  it('gets one record by id, equal to its list entry', async () => {
    const list = await json<Row>(await api.get(`/api/${group}?items_per_page=3`));
    const first = (list[group] as Row[])[0] as Row;
    const one = await json<Row>(await api.get(`/api/${group}/${first[idField]}`));
    expect(recordSchemas[group].safeParse(one).error).toBeUndefined();
    expect(one).toEqual(first);
    expect(Object.keys(one)[0]).toBe(group === 'tutors' ? 'tutor_id' : idField);
  });

  it('answers 404 for an unknown id and 400 for one that is not a UUID', async () => {
    const unknown = await expectProblem(
      await api.get(`/api/${group}/00000000-0000-4000-8000-000000000000`),
      404,
    );
    expect(unknown.detail).toContain(idField);
    for (const bad of ['123', 'not-a-uuid', '00000000-0000-4000-8000-00000000000', '%27%20OR%201%3D1', 'ç']) {
      const problem = await expectProblem(await api.get(`/api/${group}/${bad}`), 400);
      expect(problem.errors?.[0]).toMatchObject({ name: idField, in: 'path' });
    }
  });
});

describe('the bank-account key rule (interface-spec 2.1 and 2.2, contract section 3)', () => {
  it('always writes bankAccounts, never bank_accounts, and a teacher never carries student_id', async () => {
    for (const group of ['students', 'teachers', 'tutors', 'staffs', 'entities'] as const) {
      const body = await json<Row>(await api.get(`/api/${group}?items_per_page=500`));
      for (const record of body[group] as Row[]) {
        expect(Array.isArray(record.bankAccounts)).toBe(true);
        expect(record).not.toHaveProperty('bank_accounts');
        for (const account of record.bankAccounts as Row[]) {
          expect(account).toHaveProperty('back_account_number');
          expect(account.entity_bank_account_type).toBe('IBAN');
        }
      }
    }
    const teachers = await json<Row>(await api.get('/api/teachers?items_per_page=500'));
    for (const teacher of teachers.teachers as Row[]) {
      expect(teacher).toHaveProperty('teacher_id');
      expect(teacher).not.toHaveProperty('student_id');
    }
  });
});

describe('relations between records (contract section 3)', () => {
  it('links every student, teacher, tutor and staff record to an entity that lists it in its roles', async () => {
    const entities = new Map(
      ((await json<Row>(await api.get('/api/entities?items_per_page=500'))).entities as Row[]).map((e) => [
        e.entity_id,
        e,
      ]),
    );
    const roleNames = { students: 'student', teachers: 'teacher', tutors: 'tutor', staffs: 'staff' } as const;
    for (const [group, role] of Object.entries(roleNames) as [keyof typeof roleNames, string][]) {
      const body = await json<Row>(await api.get(`/api/${group}?items_per_page=500`));
      for (const record of body[group] as Row[]) {
        const entity = entities.get(record.entity_id) as { roles: Row[]; entity_type: string } | undefined;
        expect(entity?.entity_type).toBe('person');
        expect(entity?.roles).toContainEqual({ role, id: record[idFields[group]] });
      }
    }
    const organisations = [...entities.values()].filter((e) => e.entity_type === 'organisation');
    expect(organisations.length).toBeGreaterThan(0);
    for (const organisation of organisations) expect(organisation.roles).toEqual([]);
  });

  it("lists each tutor's students, all of which exist", async () => {
    const students = new Set(
      ((await json<Row>(await api.get('/api/students?items_per_page=500'))).students as Row[]).map(
        (s) => s.student_id,
      ),
    );
    const tutors = (await json<Row>(await api.get('/api/tutors?items_per_page=500'))).tutors as Row[];
    for (const tutor of tutors) {
      expect((tutor.student_ids as string[]).length).toBeGreaterThan(0);
      for (const id of tutor.student_ids as string[]) expect(students.has(id)).toBe(true);
    }
  });
});

describe('GET /api/system', () => {
  it('reports the tenant, the version, the time and counts equal to each list total', async () => {
    const status = await json<Row>(await api.get('/api/system'));
    expect(status).toMatchObject({ tenant_id: 'demo', service: 'school-api', status: 'ok' });
    expect(Math.abs(Date.parse(status.server_time as string) - Date.now())).toBeLessThan(60_000);
    for (const group of recordGroups) {
      const list = await json<Row>(await api.get(`/api/${group}?items_per_page=1`));
      expect((status.counts as Row)[group]).toBe(list.total_items);
    }
  });
});
