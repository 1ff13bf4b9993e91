// The demo seed (shared/data/seed-records.ts) writes a set of new records in batches into a table that
// holds none: the same items, links, claims and counts that inserting them in transactions writes, and
// it refuses a set that repeats an item, which the transactions' conditions would refuse.
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { ensureTable } from '../infra/local/bootstrap';
import { demoTenant } from '../infra/local/seed/demo-tenant';
import { createDocumentClient } from '../shared/data/document-client';
import { keys } from '../shared/data/keys';
import { RecordRepository } from '../shared/data/record-repository';
import { insertRecords, type NewRecord, seedRecords } from '../shared/data/seed-records';

const db = createDocumentClient({ region: 'eu-west-1', endpoint: inject('dynamodbEndpoint') });
afterAll(() => db.destroy());

/** A part of the demo tenant that names nothing outside it: its people and organisations, and its students. */
const closedSet = (): NewRecord[] =>
  demoTenant().filter(({ group }) => group === 'entities' || group === 'students');

async function newTable(): Promise<{ tableName: string; records: RecordRepository }> {
  const tableName = `seed-${crypto.randomUUID().slice(0, 8)}`;
  await ensureTable(db, tableName, { stream: false });
  return { tableName, records: new RecordRepository(db, tableName) };
}

/** Every item but the counters, whose shards differ, by key. */
async function itemsOf(tableName: string): Promise<Map<string, unknown>> {
  const items = new Map<string, unknown>();
  let start: Record<string, unknown> | undefined;
  do {
    const page = await db.send(new ScanCommand({ TableName: tableName, ExclusiveStartKey: start }));
    for (const item of page.Items ?? []) {
      if (item.pk !== keys.counterPartition) items.set(`${item.pk} ${item.sk}`, item);
    }
    start = page.LastEvaluatedKey;
  } while (start);
  return items;
}

describe('the demo seed', () => {
  it('writes what inserting the same records writes, with the same counts', async () => {
    const inserted = await newTable();
    const seeded = await newTable();
    await insertRecords(db, inserted.tableName, closedSet());
    await seedRecords(db, seeded.tableName, closedSet());
    const expected = await itemsOf(inserted.tableName);
    expect(expected.size).toBeGreaterThan(closedSet().length);
    expect(await itemsOf(seeded.tableName)).toEqual(expected);
    expect(await seeded.records.counts()).toEqual(await inserted.records.counts());
  });

  it('refuses a set that writes an item twice, before writing anything', async () => {
    const { tableName } = await newTable();
    const [first] = closedSet();
    if (!first) throw new Error('the demo tenant has no records');
    await expect(seedRecords(db, tableName, [first, first])).rejects.toThrow(/writes the item .* twice/);
    expect((await itemsOf(tableName)).size).toBe(0);
  });
});
