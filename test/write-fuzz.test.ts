// Malformed bodies for every write operation (issue "Writing records", deliverable 7): property-based
// tests send arbitrary JSON, broken fields and non-JSON text, and expect a 4xx problem every time and a
// table that is exactly as it was.
import { randomUUID } from 'node:crypto';
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

/**
 * A valid body broken in one way: a field of the wrong type, a required field gone, an unknown field (where
 * the body refuses one: a OneRoster object's are the binding's extensions, and ignored), a broken nested
 * entry.
 */
function broken(valid: Row, required: string[], unknownRefused = true): fc.Arbitrary<unknown> {
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
    ...(unknownRefused
      ? [
          fc
            .string({ minLength: 1, maxLength: 12 })
            .filter((key) => !(key in valid) && key !== 'bank_accounts' && key !== '__proto__')
            .map((key) => ({ ...valid, [key]: 'x' })),
        ]
      : []),
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

async function expectRefused(method: string, path: string, body: unknown, type = 'application/problem+json') {
  const response = await api.send(method, path, typeof body === 'string' ? body : JSON.stringify(body));
  const text = await response.text();
  expect(response.status, `${method} ${path} ${text}`).toBeGreaterThanOrEqual(400);
  expect(response.status, `${method} ${path} ${text}`).toBeLessThan(500);
  expect(response.headers.get('content-type')).toBe(type);
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

  it('to the OneRoster Gradebook binding always get a 4xx imsx_StatusInfo and leave the table as it was', async () => {
    const gradebook = '/ims/oneroster/gradebook/v1p2';
    const [result] = (await json<Row>(await api.get('/api/results?items_per_page=1'))).results as Row[];
    const item = await json<Row>(await api.get(`/api/line_items/${result?.line_item_id}`));
    const student = await json<Row>(await api.get(`/api/students/${result?.student_id}`));
    const ref = (sourcedId: unknown) => ({ sourcedId });
    // The fields each write reads, valid: every one broken in turn, each required one left out.
    const lineItem: Row = {
      sourcedId: item.line_item_id,
      status: 'active',
      title: 'Ficha',
      description: 'Frações',
      assignDate: '2026-11-02',
      dueDate: '2026-11-09',
      class: ref(item.class_id),
      category: ref(item.category_id),
      resultValueMax: 20,
    };
    const grade: Row = {
      sourcedId: result?.result_id,
      status: 'active',
      lineItem: ref(item.line_item_id),
      student: ref(student.entity_id),
      scoreStatus: 'fully graded',
      score: 15,
      scoreDate: '2026-11-10',
      comment: 'Bom',
    };
    // A class's own score scale, under a new sourcedId.
    const scaleId = randomUUID();
    const scale: Row = {
      sourcedId: scaleId,
      status: 'active',
      title: 'Escala da turma',
      type: 'letter',
      class: ref(item.class_id),
      scoreScaleValue: ['Muito Bom', 'Bom', 'Suficiente'].map((v) => ({ itemValueLHS: v, itemValueRHS: v })),
    };
    const imsx = 'application/json';
    const before = await scanTable();
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          broken(scale, ['sourcedId', 'title', 'type', 'class', 'scoreScaleValue'], false).map((body) => ({
            scoreScale: body,
          })),
          anyBody,
        ),
        async (body) => expectRefused('PUT', `${gradebook}/scoreScales/${scaleId}`, body, imsx),
      ),
      { numRuns: 40 },
    );
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          broken(lineItem, ['sourcedId', 'title', 'assignDate', 'dueDate', 'class', 'category'], false).map(
            (body) => ({ lineItem: body }),
          ),
          anyBody,
        ),
        async (body) => expectRefused('PUT', `${gradebook}/lineItems/${item.line_item_id}`, body, imsx),
      ),
      { numRuns: 40 },
    );
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          broken(grade, ['sourcedId', 'lineItem', 'student', 'scoreStatus', 'scoreDate'], false).map(
            (body) => ({ result: body }),
          ),
          anyBody,
        ),
        async (body) => expectRefused('PUT', `${gradebook}/results/${result?.result_id}`, body, imsx),
      ),
      { numRuns: 40 },
    );
    // Posted under its line item, a result may leave its lineItem out.
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          broken(grade, ['sourcedId', 'student', 'scoreStatus', 'scoreDate'], false).map((body) => ({
            results: [body],
          })),
          anyBody,
        ),
        async (body) =>
          expectRefused('POST', `${gradebook}/lineItems/${item.line_item_id}/results`, body, imsx),
      ),
      { numRuns: 40 },
    );
    expect(await scanTable()).toEqual(before);
    // And each body before it was broken is taken: what was refused was the break.
    const taken = [
      await api.send('PUT', `${gradebook}/scoreScales/${scaleId}`, { scoreScale: scale }),
      await api.send('PUT', `${gradebook}/lineItems/${item.line_item_id}`, { lineItem }),
      await api.send('PUT', `${gradebook}/results/${result?.result_id}`, { result: grade }),
      await api.send('POST', `${gradebook}/lineItems/${item.line_item_id}/results`, { results: [grade] }),
    ];
    expect(taken.map((response) => response.status)).toEqual([201, 201, 201, 201]);
  });
});
