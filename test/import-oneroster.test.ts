// `npm run import -- roster.zip --format oneroster` (issue 12, item 3): a OneRoster CSV 1.2.1 bulk zip made
// by the export itself, then changed, loads through the record writer with bad rows reported by file and
// line; a re-run changes nothing; a delta zip updates only what it lists.
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'csv-parse/sync';
import { strToU8, unzipSync, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type OneRosterTable, tableCsv } from '../shared/exports/oneroster-csv';
import { json } from './support/contract';
import { startTestApi, type TestApi } from './support/test-api';

let api: TestApi;
const dir = mkdtempSync(join(tmpdir(), 'school-oneroster-import-'));
const root = fileURLToPath(new URL('..', import.meta.url));
const tsx = join(root, 'node_modules/tsx/dist/cli.mjs');
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  await api.stop();
  rmSync(dir, { recursive: true, force: true });
});

function run(script: string, ...args: string[]) {
  const result = spawnSync(process.execPath, [tsx, script, ...args], {
    cwd: root,
    encoding: 'utf8',
    env: {
      ...process.env,
      TABLE_NAME: api.tableName,
      TENANT_ID: 'demo',
      DYNAMODB_ENDPOINT: inject('dynamodbEndpoint'),
      AWS_REGION: 'eu-west-1',
      LOG_LEVEL: 'silent',
    },
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

type Cells = Record<string, string>;
const rowsOf = (bytes: Uint8Array | undefined) =>
  parse(Buffer.from(bytes as Uint8Array), { columns: true }) as Cells[];
const manifestOf = (modes: Record<string, string>) =>
  `propertyName,value\r\nmanifest.version,1.0\r\noneroster.version,1.2\r\n${Object.entries(modes)
    .map(([name, mode]) => `file.${name},${mode}\r\n`)
    .join('')}source.systemName,test\r\n`;

describe('npm run import --format oneroster', () => {
  let files: Record<string, Uint8Array>;

  it('loads a changed bulk zip from the export, reports bad rows by file and line, and a re-run changes nothing', async () => {
    const out = join(dir, 'export');
    const exported = run('infra/cli/export.ts', '--out', out);
    expect(exported.status, exported.stderr).toBe(0);
    const [runId] = readdirSync(out);
    files = unzipSync(readFileSync(join(out, runId as string, 'oneroster-csv.zip')));

    const courses = rowsOf(files['courses.csv']);
    const classes = rowsOf(files['classes.csv']);
    const enrollments = rowsOf(files['enrollments.csv']);
    const renamed: Cells = { ...(courses[0] as Cells), title: 'Matemática A (revista)' };
    const newClass: Cells = {
      ...(classes[0] as Cells),
      sourcedId: randomUUID(),
      title: 'Turma nova',
      classCode: 'NOVA',
    };
    const badCourse: Cells = { ...(courses[1] as Cells), sourcedId: randomUUID(), orgSourcedId: 'not-an-id' };
    const badEnrollment: Cells = {
      ...(enrollments[0] as Cells),
      sourcedId: randomUUID(),
      userSourcedId: randomUUID(),
    };
    const zip = join(dir, 'bulk.zip');
    writeFileSync(
      zip,
      zipSync({
        ...files,
        'courses.csv': strToU8(tableCsv('courses', [renamed, ...courses.slice(1), badCourse])),
        'classes.csv': strToU8(tableCsv('classes', [...classes, newClass])),
        'enrollments.csv': strToU8(tableCsv('enrollments', [...enrollments, badEnrollment])),
      }),
    );

    const first = run('infra/cli/import.ts', zip, '--format', 'oneroster');
    expect(first.status, first.stderr).toBe(1);
    // Line 1 is the header: the bad course is the file's last row.
    expect(first.stdout).toMatch(new RegExp(`courses\\.csv line ${courses.length + 2}: org_id`));
    expect(first.stdout).toMatch(new RegExp(`enrollments\\.csv line ${enrollments.length + 2}: `));
    expect(first.stdout).toContain('not loaded (create them through the API): orgs.csv, users.csv');
    expect(first.stdout).toContain(`courses.csv: ${courses.length + 1} rows: 0 created, 1 updated`);
    expect(first.stdout).toContain(`classes.csv: ${classes.length + 1} rows: 1 created, 0 updated`);
    expect(first.stdout).toMatch(
      /academicSessions\.csv: \d+ rows: 0 created, 0 updated, \d+ unchanged, 0 refused/,
    );
    expect(first.stdout).toContain(`enrollments.csv: ${enrollments.length + 1} rows: 0 created, 0 updated`);

    const course = await json<Cells>(await api.get(`/api/courses/${renamed.sourcedId}`));
    expect(course.title).toBe('Matemática A (revista)');
    const created = await json<Record<string, unknown>>(await api.get(`/api/classes/${newClass.sourcedId}`));
    expect(created).toMatchObject({
      title: 'Turma nova',
      class_code: 'NOVA',
      course_id: newClass.courseSourcedId,
    });
    expect((await api.get(`/api/enrollments/${badEnrollment.sourcedId}`)).status).toBe(404);

    const again = run('infra/cli/import.ts', zip, '--format', 'oneroster');
    expect(again.status).toBe(1);
    expect(again.stdout).toMatch(
      /: \d+ rows in [\d.]+ s \([\d.]+ rows\/s\): 0 created, 0 updated, \d+ unchanged, 2 refused\n$/,
    );
  });

  it('loads a delta zip: only the rows it lists change', async () => {
    const courses = rowsOf(files['courses.csv']);
    const target: Cells = {
      ...(courses[2] as Cells),
      status: 'active',
      dateLastModified: new Date().toISOString(),
      title: 'Português (delta)',
    };
    const zip = join(dir, 'delta.zip');
    writeFileSync(
      zip,
      zipSync({
        'manifest.csv': strToU8(manifestOf({ courses: 'delta', classes: 'absent', orgs: 'absent' })),
        'courses.csv': strToU8(tableCsv('courses' satisfies OneRosterTable, [target])),
      }),
    );
    const result = run('infra/cli/import.ts', zip, '--format', 'oneroster');
    expect(result.status, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toContain('courses.csv: 1 rows: 0 created, 1 updated, 0 unchanged, 0 refused');
    const course = await json<Cells>(await api.get(`/api/courses/${target.sourcedId}`));
    expect(course.title).toBe('Português (delta)');
  });

  it('refuses a file that is not a OneRoster zip with exit status 2', () => {
    const notZip = join(dir, 'roster.zip');
    writeFileSync(notZip, 'sourcedId,title\r\n');
    const result = run('infra/cli/import.ts', notZip, '--format', 'oneroster');
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('is not a zip');
  });
});
