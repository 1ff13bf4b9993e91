// Tables of 1,000 to 100,000 students for the read-cost benchmark. Every student is a copy of one
// demo student under a new id, so every page holds records of one size and a difference in what a
// page costs can only come from how it is read. Loaded with parallel BatchWriteItem calls and the
// counter set once at the end: the repository's transactional insert keeps the count exact under
// concurrent writers, which a one-off load does not need and which would serialise on the counter.
import { randomUUID } from 'node:crypto';
import { BatchWriteCommand, type DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { ensureTable } from '../../infra/local/bootstrap';
import { keys } from '../../shared/data/keys';
import type { Student } from '../../shared/schemas/records';

const BATCH = 25;
const WRITERS = 8;
const MAX_ATTEMPTS = 10;

export interface SeededTable {
  tableName: string;
  students: number;
  /** Every id, in the order lists return them. */
  sortedIds: string[];
  seconds: number;
}

async function writeBatch(db: DynamoDBDocumentClient, tableName: string, items: Record<string, unknown>[]) {
  let pending: Record<string, { PutRequest: { Item: Record<string, unknown> } }[]> = {
    [tableName]: items.map((Item) => ({ PutRequest: { Item } })),
  };
  for (let attempt = 1; Object.keys(pending).length > 0; attempt++) {
    if (attempt > MAX_ATTEMPTS)
      throw new Error(`BatchWriteItem left items unprocessed ${MAX_ATTEMPTS} times`);
    const { UnprocessedItems } = await db.send(new BatchWriteCommand({ RequestItems: pending }));
    pending = (UnprocessedItems ?? {}) as typeof pending;
    if (Object.keys(pending).length > 0) await new Promise((resolve) => setTimeout(resolve, 20 * attempt));
  }
}

export async function seedStudents(
  db: DynamoDBDocumentClient,
  tableName: string,
  students: number,
  template: Student,
): Promise<SeededTable> {
  const started = performance.now();
  await ensureTable(db, tableName, { stream: false });
  const ids = Array.from({ length: students }, () => randomUUID());
  let next = 0;
  const writer = async () => {
    for (let start = next; start < students; start = next) {
      next += BATCH;
      const items = ids.slice(start, start + BATCH).map((id) => ({
        ...keys.record('students', id),
        ...template,
        student_id: id,
      }));
      await writeBatch(db, tableName, items);
    }
  };
  await Promise.all(Array.from({ length: WRITERS }, writer));
  await db.send(
    new PutCommand({ TableName: tableName, Item: { ...keys.counter('students'), count: students } }),
  );
  return {
    tableName,
    students,
    sortedIds: ids.sort(),
    seconds: Math.round((performance.now() - started) / 100) / 10,
  };
}
