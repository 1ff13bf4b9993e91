// Malformed bodies for every write operation (issue "Writing records", deliverable 7): property-based
// tests send arbitrary JSON, broken fields and non-JSON text, and expect a 4xx problem every time and a
// table that is exactly as it was.
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keys } from '../shared/data/keys';
import { idFields, personGroups } from '../shared/domain/groups';
import { json } from './support/contract';
import { documentBody, organisationBody, personBody } from './support/fixtures';
import { startTestApi, type TestApi } from './support/test-api';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.stop());

type Row = Record<string, unknown>;

/**
 * The caller's requests are counted whatever their outcome (its rate limit's window, its client's usage):
 * that is the request itself, not the bad input changing anything.
 */
const requestCounters = new Set<string>([keys.rateWindowPartition, keys.clientUsagePartition]);

/** Every item of the table but the request counters, in key order. */
async function scanTable(): Promise<Row[]> {
  const items: Row[] = [];
  let startKey: Row | undefined;
  do {
    const page = await api.db.send(
      new ScanCommand({ TableName: api.tableName, ExclusiveStartKey: startKey, ConsistentRead: true }),
    );
    items.push(...(page.Items ?? []));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return items
    .filter((item) => !requestCounters.has(item.pk as string))
    .sort((a, b) => `${a.pk}|${a.sk}`.localeCompare(`${b.pk}|${b.sk}`));
}

/** A JSON value of another type than the one given. */
const otherType = (value: unknown): fc.Arbitrary<unknown> => {
  const choices: fc.Arbitrary<unknown>[] = [fc.constant(null)];
  if (typeof value !== 'string') choices.push(fc.string());
  if (typeof value !== 'number') choices.push(fc.integer(), fc.double({ noNaN: true }));
  if (typeof value !== 'boolean') choices.push(fc.boolean());
  if (!Array.isArray(value)) choices.push(fc.array(fc.string(), { maxLength: 3 }));
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    choices.push(fc.dictionary(fc.string(), fc.string()));
  return fc.oneof(...choices);
};

/** A valid body broken in one way: a field of the wrong type, a required field gone, an unknown field, a broken nested entry. */
function broken(valid: Row, required: string[]): fc.Arbitrary<unknown> {
  const fields = Object.keys(valid);
  const nested = fields.filter((f) => Array.isArray(valid[f]) && (valid[f] as unknown[]).length > 0);
  return fc.oneof(
    fc
      .constantFrom(...fields)
      .chain((field) => otherType(valid[field]).map((value) => ({ ...valid, [field]: value }))),
    fc.constantFrom(...required).map((field) => {
      const { [field]: _gone, ...rest } = valid;
      return rest;
    }),
    fc
      .string({ minLength: 1, maxLength: 12 })
      .filter((key) => !(key in valid) && key !== 'bank_accounts' && key !== '__proto__')
      .map((key) => ({ ...valid, [key]: 'x' })),
    ...(nested.length > 0
      ? [
          fc.constantFrom(...nested).chain((field) => {
            const entry = (valid[field] as Row[])[0] as Row;
            return fc
              .constantFrom(...Object.keys(entry))
              .chain((key) =>
                otherType(entry[key]).map((value) => ({ ...valid, [field]: [{ ...entry, [key]: value }] })),
              );
          }),
        ]
      : []),
  );
}

const anyBody: fc.Arbitrary<string> = fc.oneof(
  fc.jsonValue().map((value) => JSON.stringify(value) ?? 'null'),
  fc.string(),
  fc.constantFrom('{', '{"a":}', '[1,2', '\u0000', 'true', '""'),
);

async function expectRefused(method: string, path: string, body: unknown) {
  const response = await api.send(method, path, typeof body === 'string' ? body : JSON.stringify(body));
  const text = await response.text();
  expect(response.status, `${method} ${path} ${text}`).toBeGreaterThanOrEqual(400);
  expect(response.status, `${method} ${path} ${text}`).toBeLessThan(500);
  expect(response.headers.get('content-type')).toBe('application/problem+json');
}

describe('malformed bodies for every write operation', () => {
  it('always get a 4xx problem and leave the table exactly as it was', async () => {
    const existing: Record<string, string> = {};
    for (const group of personGroups) {
      const page = await json<Row>(await api.get(`/api/${group}?items_per_page=1`));
      existing[group] = ((page[group] as Row[])[0] as Row)[idFields[group]] as string;
    }
    const before = await scanTable();
    const students = await json<Row>(await api.get('/api/students?items_per_page=1'));
    const studentId = ((students.students as Row[])[0] as Row).student_id;

    for (const group of personGroups) {
      const valid: Row =
        group === 'entities'
          ? organisationBody()
          : group === 'tutors'
            ? { ...personBody('E'), student_ids: [studentId] }
            : personBody();
      const required =
        group === 'entities'
          ? ['entity_type', 'name', 'email']
          : ['processnumber', 'ative', 'name', 'email', 'birth_date'];
      const one = `/api/${group}/${existing[group]}`;
      await fc.assert(
        fc.asyncProperty(fc.oneof(broken(valid, required), anyBody), async (body) => {
          await expectRefused('POST', `/api/${group}`, body);
          await expectRefused('PUT', one, body);
        }),
        { numRuns: 40 },
      );
      await fc.assert(
        fc.asyncProperty(fc.oneof(broken(documentBody, Object.keys(documentBody)), anyBody), async (body) =>
          expectRefused('POST', `${one}/documents`, body),
        ),
        { numRuns: 25 },
      );
    }
    expect(await scanTable()).toEqual(before);
  });
});
