// `npm run export -- --delta-since <t>` (docs/exports.md): beside the bulk files, the run writes a
// OneRoster CSV 1.2.1 delta zip of what changed and was deleted after <t>, which tells the same as the
// REST binding's dateLastModified> read, passes verify-export, and turns a copy loaded from the bulk zip
// before the changes into the tenant after them through `npm run import -- --format oneroster`.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureTable } from '../infra/local/bootstrap';
import { RecordRepository } from '../shared/data/record-repository';
import type { Manifest } from '../shared/exports/manifest';
import { runCliOn } from './support/cli-run';
import { json } from './support/contract';
import { personBody } from './support/fixtures';
import { createRecord, removeRecord, startTestApi, type TestApi, waitForSyncLag } from './support/test-api';

const BASE = '/ims/oneroster/rostering/v1p2';
const dir = mkdtempSync(join(tmpdir(), 'school-export-delta-'));

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  await api.stop();
  rmSync(dir, { recursive: true, force: true });
});

const runOn = runCliOn;

type Row = Record<string, unknown>;
type Cells = Record<string, string>;

/** Runs an export into a folder of its own under `name`, and returns the run's folder. */
function exportInto(name: string, ...args: string[]): string {
  const out = join(dir, name);
  const run = runOn(api.tableName, 'infra/cli/export.ts', '--out', out, ...args);
  expect(run.status, run.stdout + run.stderr).toBe(0);
  const [runId] = readdirSync(out);
  return join(out, runId as string);
}

const tablesOf = (zip: Buffer) => {
  const files = unzipSync(zip);
  const read = (name: string) =>
    parse(Buffer.from(files[name] as Uint8Array), { columns: true, bom: true }) as Cells[];
  const manifest = Object.fromEntries(read('manifest.csv').map((r) => [r.propertyName, r.value]));
  const tables = Object.fromEntries(
    Object.entries(manifest)
      .filter(([property, mode]) => property.startsWith('file.') && mode !== 'absent')
      .map(([property]) => [property.slice('file.'.length), read(`${property.slice('file.'.length)}.csv`)]),
  );
  return { manifest, tables };
};

const create = (group: string, body: Row) => createRecord(api, group, body);
const remove = (group: string, id: unknown) => removeRecord(api, group, id);

/** The REST binding's delta read since `since`, every page: each object's status by sourcedId. */
async function restDelta(path: string, since: string): Promise<Map<string, string>> {
  const filter = encodeURIComponent(`dateLastModified>'${since}'`);
  const body = await json<Record<string, { sourcedId: string; status: string }[]>>(
    await api.get(`${BASE}${path}?limit=1000&filter=${filter}`),
  );
  return new Map((Object.values(body)[0] ?? []).map((o) => [o.sourcedId, o.status]));
}

describe('the OneRoster delta zip of an export run', () => {
  it('tells what changed and was deleted since, as REST does, and brings a copy from before up to date', async () => {
    const before = exportInto('before');
    const copyTable = `${api.tableName}-delta-copy`;
    await ensureTable(api.db, copyTable, { stream: false });
    const loaded = runOn(
      copyTable,
      'infra/cli/import.ts',
      join(before, 'oneroster-csv.zip'),
      '--format',
      'oneroster',
    );
    expect(loaded.status, loaded.stdout + loaded.stderr).toBe(0);

    await waitForSyncLag();
    const since = new Date().toISOString();
    await new Promise((resolve) => setTimeout(resolve, 5));
    const { classes } = await json<{ classes: Row[] }>(await api.get('/api/classes?items_per_page=2'));
    const [enrolledIn, renamed] = classes as [Row, Row];
    const joined = await create('students', personBody('D'));
    const enrollment = await create('enrollments', {
      class_id: enrolledIn.class_id,
      entity_id: joined.entity_id,
      role: 'student',
      primary: false,
      begin_date: null,
      end_date: null,
    });
    const left = await create('students', personBody('D'));
    await remove('students', left.student_id);
    const { enrollments } = await json<{ enrollments: Row[] }>(
      await api.get('/api/enrollments?items_per_page=1'),
    );
    const ended = (enrollments as Row[])[0] as Row;
    await remove('enrollments', ended.enrollment_id);
    const read = await api.get(`/api/classes/${String(renamed.class_id)}`);
    const title = `${String(renamed.title)} (renomeada)`;
    const put = await api.send(
      'PUT',
      `/api/classes/${String(renamed.class_id)}`,
      { ...((await read.json()) as Row), title },
      { headers: { 'if-match': read.headers.get('etag') as string } },
    );
    expect(put.status, await put.clone().text()).toBe(200);
    await waitForSyncLag();

    const after = exportInto('after', '--delta-since', since);
    const verified = runOn(api.tableName, 'infra/cli/verify-export.ts', after);
    expect(verified.status, verified.stdout + verified.stderr).toBe(0);
    const manifest = JSON.parse(readFileSync(join(after, 'manifest.json'), 'utf8')) as Manifest;
    expect(manifest.oneroster_delta).toMatchObject({ name: 'oneroster-csv-delta.zip', since });
    expect(Date.parse(manifest.oneroster_delta?.until as string)).toBeLessThan(
      Date.parse(manifest.started_at),
    );

    const { manifest: files, tables } = tablesOf(readFileSync(join(after, 'oneroster-csv-delta.zip')));
    for (const table of ['users', 'roles', 'enrollments', 'classes', 'demographics'])
      expect(files[`file.${table}`], table).toBe('delta');
    expect(files['file.orgs']).toBe('absent');
    const status = (table: string) => new Map((tables[table] ?? []).map((r) => [r.sourcedId, r.status]));
    expect(status('users')).toEqual(
      new Map([
        [String(joined.entity_id), 'active'],
        [String(left.entity_id), 'tobedeleted'],
      ]),
    );
    expect(status('roles')).toEqual(
      new Map([
        [String(joined.student_id), 'active'],
        [String(left.student_id), 'tobedeleted'],
      ]),
    );
    expect(status('enrollments')).toEqual(
      new Map([
        [String(enrollment.enrollment_id), 'active'],
        [String(ended.enrollment_id), 'tobedeleted'],
      ]),
    );
    expect(tables.classes?.find((c) => c.sourcedId === renamed.class_id)).toMatchObject({
      status: 'active',
      title,
    });
    for (const path of ['/users', '/enrollments', '/classes'])
      expect(status(path.slice(1)), path).toEqual(await restDelta(path, since));
    for (const rows of Object.values(tables))
      for (const row of rows)
        expect(Date.parse(row.dateLastModified as string)).toBeGreaterThan(Date.parse(since));

    const applied = runOn(
      copyTable,
      'infra/cli/import.ts',
      join(after, 'oneroster-csv-delta.zip'),
      '--format',
      'oneroster',
    );
    const report = applied.stdout + applied.stderr;
    expect(applied.status, report).toBe(0);
    const copy = new RecordRepository(api.db, copyTable);
    expect((await copy.get('classes', String(renamed.class_id)))?.record.title, report).toBe(title);
    expect(await copy.get('enrollments', String(enrollment.enrollment_id)), report).toBeDefined();
    expect(await copy.get('enrollments', String(ended.enrollment_id)), report).toBeUndefined();
    expect(await copy.get('students', String(joined.student_id)), report).toBeDefined();
    expect(await copy.get('students', String(left.student_id)), report).toBeUndefined();
  }, 300_000);

  it('refuses a --delta-since that is not a time, or one in the future, with exit status 2 and no run', () => {
    for (const since of ['yesterday', '2026-13-01T00:00:00Z', '2999-01-01T00:00:00Z']) {
      const out = join(dir, `refused-${since.slice(0, 4)}`);
      const run = runOn(api.tableName, 'infra/cli/export.ts', '--out', out, '--delta-since', since);
      expect(run.status, since).toBe(2);
      expect(run.stderr, since).toContain('--delta-since');
      expect(() => readdirSync(out), since).toThrow();
    }
  });
});
