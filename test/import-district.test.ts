// `npm run import -- district.zip --format oneroster` of a generated district (a vendor's ids, guardians
// naming their children, eight classes a student) into an empty tenant: every row is created, in
// transactions of many records, with the counts, links and references the one-at-a-time writer keeps
// (the two tables compared item by item); an import killed part-way and run again leaves that same
// table; a re-run changes nothing.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ensureTable } from '../infra/local/bootstrap';
import { districtOf, districtRosterZip, recordsOf } from '../infra/local/seed/district-roster';
import { createDocumentClient } from '../shared/data/document-client';
import { RecordRepository } from '../shared/data/record-repository';

const root = fileURLToPath(new URL('..', import.meta.url));
const tsx = join(root, 'node_modules/tsx/dist/cli.mjs');
const dir = mkdtempSync(join(tmpdir(), 'school-district-import-'));
const tableName = `district-${Date.now()}`;
const oneByOne = `${tableName}-one`;
const interrupted = `${tableName}-cut`;
const db = createDocumentClient({ region: 'eu-west-1', endpoint: inject('dynamodbEndpoint') });
const records = new RecordRepository(db, tableName);

beforeAll(async () => {
  await ensureTable(db, tableName, { stream: false });
  await ensureTable(db, oneByOne, { stream: false });
  await ensureTable(db, interrupted, { stream: false });
});
afterAll(() => {
  db.destroy();
  rmSync(dir, { recursive: true, force: true });
});

const importArguments = (zip: string, options: string[]) => [
  tsx,
  'infra/cli/import.ts',
  zip,
  '--format',
  'oneroster',
  ...options,
];
const importEnv = (table: string) => ({
  ...process.env,
  TABLE_NAME: table,
  TENANT_ID: 'district',
  DYNAMODB_ENDPOINT: inject('dynamodbEndpoint'),
  AWS_REGION: 'eu-west-1',
  LOG_LEVEL: 'silent',
});

function importZip(zip: string, table = tableName, ...options: string[]) {
  return spawnSync(process.execPath, importArguments(zip, options), {
    cwd: root,
    encoding: 'utf8',
    env: importEnv(table),
  });
}

/** Starts an import and kills it once it has written some of the enrollments, its last phase. */
async function importKilled(zip: string, table: string): Promise<void> {
  const child = spawn(process.execPath, importArguments(zip, []), { cwd: root, env: importEnv(table) });
  const exited = new Promise((resolve) => child.on('exit', resolve));
  const counted = new RecordRepository(db, table);
  while (child.exitCode === null && (await counted.count('enrollments')) === 0) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  child.kill('SIGKILL');
  await exited;
}

/** A table's items, but for what differs by when it was written: the times, and the counter shards. */
async function itemsOf(table: string) {
  const timed = new Set(['created_at', 'updated_at', '_cs', '_enrolled_at']);
  const items = new Map<string, Record<string, unknown>>();
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await db.send(new ScanCommand({ TableName: table, ExclusiveStartKey }));
    for (const item of page.Items ?? []) {
      if (item.pk === 'COUNTER') continue;
      items.set(
        `${item.pk}/${item.sk}`,
        Object.fromEntries(Object.entries(item).filter(([name]) => !timed.has(name))),
      );
    }
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return items;
}

async function expectSameTables(table: string, other: string) {
  const [items, others] = await Promise.all([itemsOf(table), itemsOf(other)]);
  expect(items.size).toBe(others.size);
  for (const [key, item] of others) expect(items.get(key), key).toEqual(item);
  expect(await new RecordRepository(db, table).counts()).toEqual(
    await new RecordRepository(db, other).counts(),
  );
}

describe('importing a generated district', () => {
  const size = districtOf(120);
  const zip = join(dir, 'district.zip');

  it('creates every row, with the counts, links and references of the records', async () => {
    writeFileSync(zip, districtRosterZip(size));
    const rows = recordsOf(size);
    const first = importZip(zip);
    expect(first.status, first.stderr).toBe(0);
    expect(first.stdout).toMatch(
      new RegExp(
        `: ${rows} rows in [\\d.]+ s \\([\\d.]+ rows/s\\): ${rows} created, 0 updated, 0 unchanged, 0 refused`,
      ),
    );

    const users = size.students + size.teachers + size.guardians;
    const enrollments = size.students * size.classesPerStudent + size.classes;
    expect(await records.counts()).toEqual({
      entities: 1 + size.schools + users,
      students: size.students,
      teachers: size.teachers,
      tutors: size.guardians,
      staffs: 0,
      academic_sessions: 3,
      courses: size.schools * 10,
      classes: size.classes,
      enrollments,
      categories: 0,
      score_scales: 0,
      line_items: 0,
      results: 0,
      attendance: 0,
      assessment_line_items: 0,
      assessment_results: 0,
    });
    const all = async (group: 'tutors' | 'enrollments') => {
      const found: Record<string, unknown>[] = [];
      for (let cursor: string | undefined; ; ) {
        const page = await records.listPage(group, { itemsPerPage: 1000, after: cursor });
        found.push(...(page.items as unknown as Record<string, unknown>[]));
        if (!page.hasMore) return found;
        cursor = String(found.at(-1)?.[group === 'tutors' ? 'tutor_id' : 'enrollment_id']);
      }
    };
    const tutors = await all('tutors');
    expect(tutors).toHaveLength(size.guardians);
    // Each guardian names one student, who is in the guardian's care.
    for (const tutor of tutors) expect(tutor.student_ids).toHaveLength(1);
    expect(await all('enrollments')).toHaveLength(enrollments);
    // A class holds its enrollments: the teacher's and its students'.
    const classes = (await records.listPage('classes', { itemsPerPage: 100 })).items;
    const onClasses = await Promise.all(
      classes.map((c) => records.enrollmentEntries('classes', String(c.class_id))),
    );
    expect(onClasses.flat()).toHaveLength(enrollments);
  }, 300_000);

  it('leaves the table item by item as writing one record a transaction does', async () => {
    const slow = importZip(zip, oneByOne, '--batch', '1');
    expect(slow.status, slow.stderr).toBe(0);
    await expectSameTables(tableName, oneByOne);
  }, 300_000);

  it('resumes an import killed part-way, leaving the same table with nothing twice', async () => {
    await importKilled(zip, interrupted);
    const cut = (await new RecordRepository(db, interrupted).counts()).enrollments;
    expect(cut).toBeGreaterThan(0);
    expect(cut).toBeLessThan(size.students * size.classesPerStudent + size.classes);
    const resumed = importZip(zip, interrupted);
    expect(resumed.status, resumed.stderr).toBe(0);
    await expectSameTables(interrupted, oneByOne);
  }, 300_000);

  it('changes nothing when run again, as after an interruption', () => {
    const rows = recordsOf(size);
    const again = importZip(zip);
    expect(again.status, again.stderr).toBe(0);
    expect(again.stdout).toMatch(
      new RegExp(
        `: ${rows} rows in [\\d.]+ s \\([\\d.]+ rows/s\\): 0 created, 0 updated, ${rows} unchanged, 0 refused`,
      ),
    );
  }, 300_000);
});
