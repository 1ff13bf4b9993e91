// A local table made before the `emails` index (issue 14) gets it on the next start, and the records
// already in it are found by e-mail address: data kept in DATA_DIR survives the upgrade.
import { randomUUID } from 'node:crypto';
import { CreateTableCommand, DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ensureTable } from '../infra/local/bootstrap';
import { type DynamoDbLocal, startDynamoDbLocal } from '../infra/local/dynamodb-local';
import { createDocumentClient } from '../shared/data/document-client';
import { RecordRepository } from '../shared/data/record-repository';
import { insertRecords } from '../shared/data/seed-records';
import { createTableInput, tableDesign } from '../shared/data/table';
import type { Student } from '../shared/schemas/records';

// A DynamoDB Local of its own, as `npm start` has: the suite's shared one, busy with every other test
// file, was seen to leave a new index CREATING for over a minute.
let database: DynamoDbLocal;
let db: ReturnType<typeof createDocumentClient>;
beforeAll(async () => {
  database = await startDynamoDbLocal();
  db = createDocumentClient({ region: 'eu-west-1', endpoint: database.endpoint });
}, 120_000);
afterAll(async () => {
  db?.destroy();
  await database?.stop();
});

it('adds the indexes an older table lacks, and finds its records by e-mail', async () => {
  const tableName = `school-upgrade-${randomUUID().slice(0, 8)}`;
  const current = createTableInput(tableName);
  const older = {
    ...current,
    AttributeDefinitions: current.AttributeDefinitions?.filter(
      (attribute) => attribute.AttributeName !== tableDesign.emailsIndex.sortKey,
    ),
    GlobalSecondaryIndexes: current.GlobalSecondaryIndexes?.filter(
      (index) => index.IndexName !== tableDesign.emailsIndex.name,
    ),
  };
  await db.send(new CreateTableCommand(older));
  const records = new RecordRepository(db, tableName);
  const student = {
    student_id: randomUUID(),
    processnumber: 'UPG1',
    ative: true,
    email: 'kept@example.org',
    name: 'Kept Before',
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
  } as unknown as Student;
  await insertRecords(db, tableName, [{ group: 'students', record: student }]);

  expect(await ensureTable(db, tableName, { stream: true })).toBe(false);
  const { Table } = await db.send(new DescribeTableCommand({ TableName: tableName }));
  expect(Table?.GlobalSecondaryIndexes?.map((index) => index.IndexName).sort()).toEqual(
    tableDesign.indexes.map((index) => index.name).sort(),
  );
  expect(await records.idsByEmail('students', 'kept@example.org')).toEqual([student.student_id]);
  // A second start finds nothing to add.
  expect(await ensureTable(db, tableName, { stream: true })).toBe(false);
});
