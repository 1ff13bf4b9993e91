// The progress of `npm run export` and `npm run import` as a CI log or a supervisor's log file records it
// (plain lines, no bar, no cursor codes), and as a person at a terminal sees it (a bar redrawn in place).
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startTestApi, TEST_SYNC_LAG_MS, type TestApi } from './support/test-api';

const root = fileURLToPath(new URL('..', import.meta.url));
const tsx = join(root, 'node_modules/tsx/dist/cli.mjs');
const dir = mkdtempSync(join(tmpdir(), 'school-progress-'));
/** cli-progress's bar, 40 characters of done and to do; a log should hold none, nor an escape or a carriage return. */
const BAR = /[=-]{40}/;
const hasControl = (text: string) => text.includes('\u001b') || text.includes('\r');
/** util-linux `script` runs a command on a pseudo-terminal, as a person's terminal would. */
const hasScript = (() => {
  try {
    execFileSync('script', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

let api: TestApi;
let exported: { status: number | null; stderr: string };
let studentsCsv: string;
beforeAll(async () => {
  api = await startTestApi();
  // The export's students.csv is a file of good rows for the imports below.
  exported = await piped('infra/cli/export.ts', '--out', dir);
  studentsCsv = join(dir, readdirSync(dir)[0] as string, 'students.csv');
});
afterAll(async () => {
  await api.stop();
  rmSync(dir, { recursive: true, force: true });
});

const env = () => ({
  ...process.env,
  TABLE_NAME: api.tableName,
  TENANT_ID: 'demo',
  AWS_REGION: 'eu-west-1',
  DYNAMODB_ENDPOINT: inject('dynamodbEndpoint'),
  SYNC_LAG_MS: String(TEST_SYNC_LAG_MS),
  LOG_LEVEL: 'silent',
});

/** Runs a tool with its output on pipes, without blocking this process, which serves the API it uses. */
function piped(...args: string[]): Promise<{ status: number | null; stderr: string }> {
  const child = spawn(process.execPath, [tsx, ...args], { cwd: root, env: env(), stdio: 'pipe' });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise((resolve) => child.once('close', (status) => resolve({ status, stderr })));
}

describe('progress on stderr', () => {
  it('is plain lines when stderr is not a terminal', async () => {
    expect(exported.status, exported.stderr).toBe(0);
    expect(exported.stderr).toMatch(/^exporting: \d+% \| \d+\/\d+ records \(NDJSON \+ CSV\)/m);
    expect(exported.stderr).not.toMatch(BAR);
    expect(hasControl(exported.stderr)).toBe(false);

    const imported = await piped('infra/cli/import.ts', studentsCsv, '--group', 'students');
    expect(imported.status, imported.stderr).toBe(0);
    expect(imported.stderr).toMatch(/^importing: 100% \| (\d+)\/\1 rows \| [\d.]+ rows\/s/m);
    expect(imported.stderr).not.toMatch(BAR);
    expect(hasControl(imported.stderr)).toBe(false);
  });

  it.skipIf(!hasScript)('is a bar on a terminal', async () => {
    const command = [process.execPath, tsx, 'infra/cli/import.ts', studentsCsv, '--group', 'students'].join(
      ' ',
    );
    const child = spawn('script', ['-qfec', command, '/dev/null'], { cwd: root, env: env(), stdio: 'pipe' });
    let terminal = '';
    child.stdout.on('data', (chunk: Buffer) => {
      terminal += chunk.toString();
    });
    const status = await new Promise<number | null>((resolve) => child.once('close', resolve));
    expect(status, terminal).toBe(0);
    expect(terminal).toMatch(BAR);
    expect(terminal).toContain('importing ');
    expect(terminal).not.toContain('importing:');
  });
});
