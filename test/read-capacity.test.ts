// The read-capacity report the benchmarks rely on: every read the record repository makes tells what
// it consumed, a page costs the same wherever it starts, and a page=N jump also reads the keys index,
// from the nearer end.
import { randomUUID } from 'node:crypto';
import type { ConsumedCapacity } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ensureTable } from '../infra/local/bootstrap';
import { demoTenant } from '../infra/local/seed/demo-tenant';
import { createDocumentClient } from '../shared/data/document-client';
import { reportReadCapacity } from '../shared/data/read-capacity';
import { RecordRepository } from '../shared/data/record-repository';
import { insertRecords } from '../shared/data/seed-records';
import type { Student } from '../shared/schemas/records';

const db = createDocumentClient({ region: 'eu-west-1', endpoint: inject('dynamodbEndpoint') });
const tableName = `school-capacity-${randomUUID().slice(0, 8)}`;
const reads: ConsumedCapacity[] = [];
reportReadCapacity(db, (c) => reads.push(c));
const records = new RecordRepository(db, tableName);
const template = demoTenant().find((r) => r.group === 'students')?.record as Student;

beforeAll(async () => {
  await ensureTable(db, tableName, { stream: false });
  const students = Array.from({ length: 120 }, (_, i) => {
    const id = randomUUID();
    return { group: 'students' as const, record: { ...template, student_id: id, processnumber: `C${i}` } };
  });
  await insertRecords(db, tableName, students);
});
afterAll(() => db.destroy());

async function readsOf(action: () => Promise<unknown>): Promise<ConsumedCapacity[]> {
  reads.length = 0;
  await action();
  return [...reads];
}

describe('RecordRepository read capacity', () => {
  it('reports the table capacity of a get and of the count', async () => {
    const [id] = (await records.listPage('students', { itemsPerPage: 1 })).items.map((s) => s.student_id);
    const [get] = await readsOf(() => records.get('students', id as string));
    expect(get?.Table?.CapacityUnits).toBeGreaterThan(0);
    const [count] = await readsOf(() => records.count('students'));
    expect(count?.Table?.CapacityUnits).toBe(1);
  });

  it('charges the same for a page of equal records at the start and after a cursor', async () => {
    const first = await readsOf(() => records.listPage('students', { itemsPerPage: 20 }));
    const page = await records.listPage('students', { itemsPerPage: 40 });
    const after = page.items.at(-1)?.student_id;
    const later = await readsOf(() => records.listPage('students', { itemsPerPage: 20, after }));
    expect(first).toHaveLength(1);
    expect(later.map((c) => c.CapacityUnits)).toEqual(first.map((c) => c.CapacityUnits));
  });

  it('reads the keys index for a page=N jump, then the page itself', async () => {
    const jump = await readsOf(() => records.listPage('students', { itemsPerPage: 20, skip: 60 }));
    expect(jump[0]?.GlobalSecondaryIndexes?.keys?.CapacityUnits).toBeGreaterThan(0);
    expect(jump.at(-1)?.Table?.CapacityUnits).toBeGreaterThan(0);
  });

  it('walks a jump past the middle from the back when the size is given: the same page, fewer keys read', async () => {
    const size = await records.count('students');
    const skip = size - 10;
    const pages: string[][] = [];
    const indexUnits = async (query: Parameters<typeof records.listPage>[1]) => {
      const used = await readsOf(async () => {
        pages.push((await records.listPage('students', query)).items.map((s) => s.student_id));
      });
      return used.reduce((sum, c) => sum + (c.GlobalSecondaryIndexes?.keys?.CapacityUnits ?? 0), 0);
    };
    // 110 keys of about 52 bytes from the front are two 4 KB units at half a unit each; 11 from the back, one.
    expect(await indexUnits({ itemsPerPage: 5, skip })).toBe(1);
    expect(await indexUnits({ itemsPerPage: 5, skip, size })).toBe(0.5);
    expect(pages[1]).toEqual(pages[0]);
    expect(pages[0]).toHaveLength(5);
  });
});
