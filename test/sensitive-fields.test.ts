// Sensitive values behind their own scope (issue 15, deliverable 1): identification-document and
// bank-account numbers read masked (`****` and the last four characters) unless the token carries
// `<group>:read:sensitive`, in lists, gets and the changes feed of every person group and entities; the
// fields stay (contract section 3: a record never drops a field). A guardian reads their children's
// unmasked, a teacher does not; the export keeps full values (it reads the table, not the API).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type DocumentGroup,
  documentGroups,
  idFields,
  type RecordGroup,
  sensitiveScope,
} from '../shared/domain/groups';
import { MASK, maskRecord, maskValue } from '../shared/records/sensitive-fields';
import { json } from './support/contract';
import { documentBody } from './support/fixtures';
import { startTestApi, type TestApi } from './support/test-api';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.stop());

type Row = Record<string, unknown> & {
  documents: { identification_document_value: string }[];
  bankAccounts: { back_account_number: string }[];
};

const stored = async (group: RecordGroup, id: string) => (await api.records.get(group, id))?.record as Row;
const numbers = (record: Row) => [
  ...record.documents.map((d) => d.identification_document_value),
  ...record.bankAccounts.map((b) => b.back_account_number),
];

describe('the mask', () => {
  it('keeps the last four characters of a long value and hides a short one whole', () => {
    expect(maskValue('PT50000201231234567890154')).toBe('****0154');
    expect(maskValue('12345678')).toBe(MASK);
    expect(maskRecord({ documents: [], name: 'x' })).toEqual({ documents: [], name: 'x' });
  });
});

describe.each(documentGroups)('%s', (group) => {
  const idField = idFields[group];
  const list = async (scope: string) =>
    (
      await json<Record<string, Row[]>>(
        await api.get(`/api/${group}?items_per_page=20`, { token: await api.token(scope) }),
      )
    )[group] as Row[];

  it('reads masked without the sensitive scope, in the list and by id, with every field kept', async () => {
    const rows = (await list(`${group}:read`)).filter((row) => numbers(row).length > 0);
    expect(rows.length).toBeGreaterThan(0);
    // The stored records read in one batch: one at a time, a slow machine took past the test's 30 s.
    const records = await api.records.getMany(
      group,
      rows.map((row) => row[idField] as string),
    );
    for (const row of rows) {
      const full = records.get(row[idField] as string) as unknown as Row;
      expect(row).toEqual(maskRecord(full));
      expect(numbers(row).every((n) => n === MASK || /^\*{4}.{4}$/.test(n))).toBe(true);
      expect(numbers(row)).not.toEqual(numbers(full));
    }
    const one = rows[0] as Row;
    const byId = await api.get(`/api/${group}/${one[idField]}`, { token: await api.token(`${group}:read`) });
    expect(await json<Row>(byId)).toEqual(one);
  });

  it('reads the full values with the sensitive scope', async () => {
    const rows = await list(`${group}:read ${sensitiveScope(group)}`);
    for (const row of rows.slice(0, 5)) expect(row).toEqual(await stored(group, row[idField] as string));
  });

  it('masks the changes feed too', async () => {
    const response = await api.get(`/api/${group}?updated_since=2000-01-01T00:00:00Z&items_per_page=5`, {
      token: await api.token(`${group}:read`),
    });
    const rows = (await json<Record<string, Row[]>>(response))[group] as Row[];
    for (const row of rows) expect(row).toEqual(maskRecord(await stored(group, row[idField] as string)));
  });

  it("does not unmask with another group's sensitive scope", async () => {
    const other = documentGroups.find((g) => g !== group) as DocumentGroup;
    const rows = await list(`${group}:read ${sensitiveScope(other)}`);
    const row = rows.find((r) => numbers(r).length > 0) as Row;
    expect(row).toEqual(maskRecord(await stored(group, row[idField] as string)));
  });
});

describe('people signed in', () => {
  const firstStudent = async (username: string) => {
    const response = await api.get('/api/students?items_per_page=1', {
      token: await api.personToken(username),
    });
    return ((await json<{ students: Row[] }>(response)).students[0] ?? {}) as Row;
  };

  it("a guardian reads their own children's numbers in full", async () => {
    const child = await firstStudent('guardian');
    expect(child).toEqual(await stored('students', child.student_id as string));
  });

  it("a student reads their own numbers in full, a teacher reads students' masked", async () => {
    const own = await firstStudent('student');
    expect(own).toEqual(await stored('students', own.student_id as string));
    const seen = await firstStudent('teacher');
    expect(seen).toEqual(maskRecord(await stored('students', seen.student_id as string)));
  });
});

describe('writes', () => {
  const studentBody = (processnumber: string) => ({
    processnumber,
    ative: true,
    name: 'Masked Writer',
    email: `${processnumber.toLowerCase()}@example.org`,
    birth_date: '2014-03-09',
    bankAccounts: [
      {
        back_account_number: 'PT50000201231234567890154',
        country_name: 'Portugal',
        entity_bank_account_type: 'IBAN',
      },
    ],
  });

  it('answer a writer without the sensitive scope with the numbers masked', async () => {
    const token = await api.token('students:write');
    const body = studentBody('S-MASK-1');
    const created = await json<Row>(await api.send('POST', '/api/students', body, { token }), 201);
    expect(created.bankAccounts[0]?.back_account_number).toBe('****0154');
    const full = await stored('students', created.student_id as string);
    expect(full.bankAccounts[0]?.back_account_number).toBe('PT50000201231234567890154');
  });

  it('answer a replayed Idempotency-Key in the view of the token replaying it', async () => {
    const body = studentBody('S-MASK-2');
    const headers = { 'idempotency-key': crypto.randomUUID() };
    const full = await api.token(`students:write ${sensitiveScope('students')}`);
    const first = await json<Row>(
      await api.send('POST', '/api/students', body, { token: full, headers }),
      201,
    );
    expect(first.bankAccounts[0]?.back_account_number).toBe('PT50000201231234567890154');

    const narrow = await api.token('students:write');
    const replay = await api.send('POST', '/api/students', body, { token: narrow, headers });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    const replayed = await json<Row>(replay, 201);
    expect(replayed).toEqual(maskRecord(first));
    expect(replayed.bankAccounts[0]?.back_account_number).toBe('****0154');

    const again = await json<Row>(
      await api.send('POST', '/api/students', body, { token: full, headers }),
      201,
    );
    expect(again).toEqual(first);
  });

  it('answer a replayed document Idempotency-Key in the view of the token replaying it', async () => {
    const student = await json<Row>(await api.send('POST', '/api/students', studentBody('S-MASK-3')), 201);
    const path = `/api/students/${student.student_id}/documents`;
    const document = { ...documentBody, identification_document_value: 'P-REPLAY-98765432' };
    const headers = { 'idempotency-key': crypto.randomUUID() };
    const full = await api.token(`students:write ${sensitiveScope('students')}`);
    const first = await json<Row>(await api.send('POST', path, document, { token: full, headers }), 201);
    expect(first.documents.map((d) => d.identification_document_value)).toContain('P-REPLAY-98765432');
    const replayed = await json<Row>(
      await api.send('POST', path, document, { token: await api.token('students:write'), headers }),
      201,
    );
    expect(replayed).toEqual(maskRecord(first));
    expect(replayed.documents.map((d) => d.identification_document_value)).toContain('****5432');
  });
});
