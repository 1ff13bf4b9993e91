// `npm run bench:export`: exports tenants of 10,000 and 100,000 students to a local S3 and reports each
// run's time and its peak memory, to show memory stays flat as a tenant grows. The export runs in its
// own process (export-worker.ts), so the figures are the exporter's alone, not the seeding's.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BatchWriteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { ensureTable } from '../../infra/local/bootstrap';
import { startDynamoDbLocal } from '../../infra/local/dynamodb-local';
import { startS3Local } from '../../infra/local/s3-local';
import { demoTenant } from '../../infra/local/seed/demo-tenant';
import { createDocumentClient } from '../../shared/data/document-client';
import { keys } from '../../shared/data/keys';
import { recordItem } from '../../shared/data/record-items';
import type { Student } from '../../shared/schemas/records';
import { measureExport } from './export-child';

const SIZES = (process.env.BENCH_SIZES ?? '10000,100000').split(',').map(Number);
const BUCKET = 'bench-exports';

/** Writes `count` students, copies of the demo tenant's with new ids and processnumbers, and their count. */
async function seed(endpoint: string, tableName: string, count: number) {
  const db = createDocumentClient({ region: 'eu-west-1', endpoint, adaptiveRetries: true });
  await ensureTable(db, tableName, { stream: false });
  const templates = demoTenant()
    .filter((r) => r.group === 'students')
    .map((r) => r.record as Student);
  const items = (from: number, to: number) =>
    Array.from({ length: to - from }, (_, k) => {
      const i = from + k;
      const template = templates[i % templates.length] as Student;
      return recordItem('students', { ...template, student_id: randomUUID(), processnumber: `B${i}` }, 1);
    });
  let next = 0;
  const writer = async () => {
    for (let from = next; from < count; from = next) {
      next = Math.min(count, from + 25);
      let pending = items(from, next).map((Item) => ({ PutRequest: { Item } }));
      while (pending.length > 0) {
        const { UnprocessedItems } = await db.send(
          new BatchWriteCommand({ RequestItems: { [tableName]: pending } }),
        );
        pending = (UnprocessedItems?.[tableName] ?? []) as typeof pending;
      }
    }
  };
  await Promise.all(Array.from({ length: 8 }, writer));
  await db.send(new PutCommand({ TableName: tableName, Item: { ...keys.counter('students'), count } }));
  db.destroy();
}

async function main() {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
  const dir = mkdtempSync(join(tmpdir(), 'bench-export-'));
  const database = await startDynamoDbLocal();
  const s3 = await startS3Local({ directory: join(dir, 's3'), bucket: BUCKET });
  try {
    console.log('records  seconds  records/s  peak RSS  peak heap  students.ndjson.gz  students.csv');
    for (const size of SIZES) {
      const tableName = `bench-${size}`;
      await seed(database.endpoint, tableName, size);
      const r = await measureExport({
        TABLE_NAME: tableName,
        TENANT_ID: 'bench',
        DYNAMODB_ENDPOINT: database.endpoint,
        EXPORT_BUCKET: BUCKET,
        S3_ENDPOINT: s3.endpoint,
      });
      const f = (n: number, digits = 1) => n.toFixed(digits);
      console.log(
        `${String(r.students).padStart(7)}  ${f(r.seconds).padStart(7)}  ${f(r.students / r.seconds, 0).padStart(9)}  ${f(r.peakRssMiB).padStart(4)} MiB  ${f(r.peakHeapMiB).padStart(5)} MiB  ${f(r.ndjsonMiB).padStart(13)} MiB  ${f(r.csvMiB).padStart(8)} MiB`,
      );
    }
  } finally {
    await s3.stop();
    await database.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
