// A group's count kept in shards: a burst of parallel creates and deletes leaves it exact, spread over
// several counter items rather than queued on one, and a table from before the shards, whose whole
// count is in the item `COUNTER`/`<group>`, keeps counting it.
import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ensureTable } from '../infra/local/bootstrap';
import { createDocumentClient } from '../shared/data/document-client';
import { keys } from '../shared/data/keys';
import { RecordRepository } from '../shared/data/record-repository';
import { RecordWriter } from '../shared/records/record-writer';
import type { InsertRequest } from '../shared/schemas/requests';
import { personBody } from './support/fixtures';

const tableName = `counters-${Date.now()}`;
const db = createDocumentClient({ region: 'eu-west-1', endpoint: inject('dynamodbEndpoint') });
const records = new RecordRepository(db, tableName);
const writer = new RecordWriter(db, tableName, records);

beforeAll(() => ensureTable(db, tableName, { stream: false }));
afterAll(() => db.destroy());

const student = () => personBody('C') as unknown as InsertRequest<'students'>;

describe("a group's count", () => {
  it('stays exact under a burst of parallel creates and deletes, over several counter items', async () => {
    const created = await Promise.all(Array.from({ length: 40 }, () => writer.create('students', student())));
    await Promise.all(created.slice(0, 10).map(({ record }) => writer.remove('students', record.student_id)));
    expect(await records.count('students')).toBe(30);
    expect((await records.counts()).entities).toBe(40);
    const { Items = [] } = await db.send(
      new QueryCommand({
        TableName: tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :group)',
        ExpressionAttributeValues: { ':pk': keys.counterPartition, ':group': 'students#' },
      }),
    );
    expect(Items.length).toBeGreaterThan(1);
  });

  it('counts the single counter item of a table from before the shards', async () => {
    await db.send(new PutCommand({ TableName: tableName, Item: { ...keys.counter('teachers'), count: 7 } }));
    await writer.create('teachers', personBody('L') as unknown as InsertRequest<'teachers'>);
    expect(await records.count('teachers')).toBe(8);
    expect((await records.counts()).teachers).toBe(8);
  });
});
