// `npm start` as a user runs it (contract section 1): the ready line, the demo client, persistence in
// DATA_DIR, no Java left behind however the process ends, a clear line without Java, logs that carry
// no personal data, passwords, codes or tokens, and the local S3 and export schedule beside the API.
// And as a supervisor or a second user would find it: it stops with the `npm start` that started it,
// holds DATA_DIR against a second start, survives Ctrl-C while seeding, and reports a busy port at once.
// And as someone else on the network or the machine would find it: nothing listens beyond loopback, and
// DATA_DIR is its owner's alone.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { DEMO_APP_ID } from '../infra/local/bootstrap';
import { pkce, REDIRECT_URI } from './support/sign-in';
import { completeSignIn } from './support/sign-in-form';

const root = fileURLToPath(new URL('..', import.meta.url));
const dataDir = mkdtempSync(join(tmpdir(), 'school-data-'));
const SECRET = 'local-run-secret';
const PASSWORD = 'local-run-password';
const WRONG_PASSWORD = 'not-the-password-9f3b';
/** The process groups of the starts a test made; whatever a failed test left running is killed after it. */
let groups: number[] = [];
const otherDirs: string[] = [];

afterEach(() => {
  for (const group of groups) {
    try {
      process.kill(-group, 'SIGKILL');
    } catch {
      // The group has already gone, as it should.
    }
  }
  groups = [];
});
afterAll(() => {
  for (const dir of [dataDir, ...otherDirs]) rmSync(dir, { recursive: true, force: true });
});

const freshDataDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'school-data-'));
  otherDirs.push(dir);
  return dir;
};

interface Started {
  child: ChildProcess;
  url: string;
  readyLine: string;
  output: string[];
}

interface StartOptions {
  env?: Record<string, string>;
  /** `npm start` itself (npm and its shell above the server), rather than the server's node alone. */
  npm?: boolean;
}

/** Starts in a process group of its own, as a terminal runs a job: a signal to the group reaches them all. */
function spawnStart({ env = {}, npm = false }: StartOptions = {}): {
  child: ChildProcess;
  output: string[];
} {
  const child = spawn(
    npm ? 'npm' : process.execPath,
    npm ? ['start'] : ['--import', 'tsx', 'infra/local/start.ts'],
    {
      cwd: root,
      env: {
        ...process.env,
        PORT: '0',
        DATA_DIR: dataDir,
        DEMO_CLIENT_SECRET: SECRET,
        DEMO_USER_PASSWORD: PASSWORD,
        LOG_LEVEL: 'info',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    },
  );
  groups.push(child.pid as number);
  const output: string[] = [];
  child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  return { child, output };
}

function start(options: StartOptions = {}): Promise<Started> {
  const { child, output } = spawnStart(options);
  return new Promise((resolve, reject) => {
    let buffer = '';
    const timer = setTimeout(() => reject(new Error(`not ready: ${output.join('\n')}`)), 120_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const lines = buffer.split('\n');
      buffer = lines.pop() ?? '';
      for (const line of lines) {
        output.push(line);
        const match = /(http:\/\/127\.0\.0\.1:\d+)/.exec(line);
        if (match?.[1]) {
          // The first line with an address is the one clients wait for: it must be the API's ready line.
          clearTimeout(timer);
          if (line.includes('ready')) resolve({ child, url: match[1], readyLine: line, output });
          else reject(new Error(`the first line with an address is not the ready line: ${line}`));
        }
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code}: ${output.join('\n')}`));
    });
  });
}

const javaProcesses = (dir = dataDir) => {
  try {
    return execFileSync('pgrep', ['-f', `DynamoDBLocal.jar.*${dir}`], { encoding: 'utf8' }).trim();
  } catch {
    return '';
  }
};

const running = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** The server's own node process: the one that started DynamoDB Local. */
const serverPid = () => {
  const java = javaProcesses().split('\n')[0] ?? '';
  return Number(execFileSync('ps', ['-o', 'ppid=', '-p', java], { encoding: 'utf8' }).trim());
};

/** Whether any process of a process group still runs. */
const groupRunning = (group: number) => running(-group);

/** The pid in DATA_DIR's lock: the server's own node process. */
const lockHolder = (dir = dataDir) => Number(readFileSync(join(dir, 'local-run.lock'), 'utf8'));

async function until(check: () => boolean, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 100));
  }
  return true;
}

const exited = (child: ChildProcess) =>
  new Promise<number | null>((resolve) =>
    child.exitCode !== null ? resolve(child.exitCode) : child.once('exit', (code) => resolve(code)),
  );

async function token(url: string) {
  const response = await fetch(`${url}/api/sso/token`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`demo-client:${SECRET}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: 'grant_type=client_credentials',
  });
  return ((await response.json()) as { access_token: string }).access_token;
}

/**
 * A failed sign-in, then the code flow for the demo guardian with a refresh: the secrets each step handled,
 * which must not reach the log.
 */
async function signInOnce(url: string): Promise<string[]> {
  const { verifier, challenge } = pkce();
  const authorize = new URL(`${url}/api/sso/authorize`);
  authorize.search = new URLSearchParams({
    response_type: 'code',
    client_id: DEMO_APP_ID,
    redirect_uri: REDIRECT_URI,
    state: 'log-check',
    code_challenge: challenge,
    code_challenge_method: 'S256',
  }).toString();
  await expect(completeSignIn(authorize, { username: 'guardian', password: WRONG_PASSWORD })).rejects.toThrow(
    /answered 400/,
  );
  const back = await completeSignIn(authorize, { username: 'guardian', password: PASSWORD });
  const code = back.searchParams.get('code') as string;
  const tokenRequest = (params: Record<string, string>) =>
    fetch(`${url}/api/sso/token`, {
      method: 'POST',
      body: new URLSearchParams({ client_id: DEMO_APP_ID, ...params }),
    });
  const first = (await (
    await tokenRequest({
      grant_type: 'authorization_code',
      code,
      code_verifier: verifier,
      redirect_uri: REDIRECT_URI,
    })
  ).json()) as { access_token: string; refresh_token: string };
  const second = (await (
    await tokenRequest({ grant_type: 'refresh_token', refresh_token: first.refresh_token })
  ).json()) as { access_token: string; refresh_token: string };
  expect(second.refresh_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  return [code, first.access_token, first.refresh_token, second.access_token, second.refresh_token];
}

/** A process and all its descendants, from /proc: the run's shell, the server, Java and its watchdog. */
function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const name of readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // pid (command) state ppid ...: the command may hold spaces and parentheses, the rest does not.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(name)]);
    } catch {
      // The process ended while the list was read.
    }
  }
  const tree = [root];
  for (const pid of tree) tree.push(...(children.get(pid) ?? []));
  return tree;
}

/** The kernel's hex spelling of the loopback addresses: 127.0.0.1, ::1, and 127.0.0.1 mapped into IPv6. */
const LOOPBACK = new Set([
  '0100007F',
  '00000000000000000000000001000000',
  '0000000000000000FFFF00000100007F',
]);

/** The TCP sockets the processes listen on, as the kernel lists them: no `ss` or `lsof` needed. */
function listeningSockets(pids: number[]): { address: string; port: number }[] {
  const inodes = new Set<string>();
  for (const pid of pids) {
    try {
      for (const fd of readdirSync(`/proc/${pid}/fd`)) {
        const socket = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
        if (socket?.[1]) inodes.add(socket[1]);
      }
    } catch {
      // The process, or one of its descriptors, went while it was read.
    }
  }
  return ['/proc/net/tcp', '/proc/net/tcp6'].flatMap((table) =>
    readFileSync(table, 'utf8')
      .trim()
      .split('\n')
      .slice(1)
      .map((line) => line.trim().split(/\s+/))
      // 0A is LISTEN; the tenth column is the socket's inode.
      .filter((fields) => fields[3] === '0A' && inodes.has(fields[9] as string))
      .map((fields) => {
        const [address, port] = (fields[1] as string).split(':');
        return { address: address as string, port: Number.parseInt(port as string, 16) };
      }),
  );
}

/** Every entry under a folder, the folder included, with the permission bits of its mode. */
function modes(dir: string): { path: string; folder: boolean; mode: string }[] {
  const stat = statSync(dir);
  const own = { path: dir, folder: stat.isDirectory(), mode: (stat.mode & 0o777).toString(8) };
  if (!own.folder) return [own];
  return [own, ...readdirSync(dir).flatMap((name) => modes(join(dir, name)))];
}

const portOf = (url: string) => Number(new URL(url).port);

// Each test starts the server at least once (DynamoDB Local, often seeding): slow on a busy machine.
describe('npm start', { timeout: 180_000 }, () => {
  it('serves the seeded demo tenant, logs no personal data, and stops DynamoDB Local on SIGTERM', async () => {
    const run = await start();
    expect(run.readyLine).toContain('demo-client');
    expect(run.readyLine).toContain(SECRET);
    expect(javaProcesses()).not.toBe('');
    const local = JSON.parse(readFileSync(join(dataDir, 'local-run.json'), 'utf8')) as Record<string, string>;
    expect(local).toMatchObject({
      tenantId: 'demo',
      exportBucket: 'school-demo-exports',
      s3Endpoint: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
    });
    // The exports line follows the ready line.
    const exportsLine =
      /Exports: 0 2 \* \* \* UTC, next \S+T02:00:00\.000Z, to s3:\/\/school-demo-exports\/exports\//;
    expect(await until(() => exportsLine.test(run.output.join('\n')))).toBe(true);
    // So does how people sign in: the demo clients, redirect URIs and accounts.
    const signInLine = run.output.find((line) => line.startsWith('Sign-in:'));
    expect(signInLine).toContain(`${run.url}/api/sso/authorize`);
    expect(signInLine).toContain('http://127.0.0.1:8976/callback');
    expect(signInLine).toContain(
      `accounts admin, teacher, guardian, guardian2, student, staff, password ${PASSWORD}`,
    );
    expect((await fetch(local.s3Endpoint as string)).status).toBe(200);

    const bearer = await token(run.url);
    const students = (await (
      await fetch(`${run.url}/api/students?items_per_page=500`, {
        headers: { authorization: `Bearer ${bearer}` },
      })
    ).json()) as { students: Record<string, unknown>[]; total_items: number };
    expect(students.total_items).toBeGreaterThanOrEqual(120);
    await fetch(`${run.url}/api/students/00000000-0000-4000-8000-000000000000?access_token=${bearer}`);
    await fetch(`${run.url}/api/nowhere`);
    const session = await signInOnce(run.url);

    run.child.kill('SIGTERM');
    expect(await exited(run.child)).toBe(0);
    expect(await until(() => javaProcesses() === '')).toBe(true);
    await expect(fetch(local.s3Endpoint as string)).rejects.toThrow();

    const logLines = run.output.filter((line) => line.startsWith('{'));
    expect(logLines.length).toBeGreaterThanOrEqual(4);
    const requests = logLines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((l) => l.message === 'request');
    expect(requests.map((l) => l.status)).toEqual(expect.arrayContaining([200, 404]));
    const logs = run.output.join('\n');
    expect(logs).not.toContain(bearer);
    expect(logs.split(SECRET).length).toBe(2);
    // The demo password is in the banner and nowhere else; no other password, code or token is logged.
    expect(logs.split(PASSWORD).length).toBe(2);
    for (const secret of [WRONG_PASSWORD, ...session]) expect(logs).not.toContain(secret);
    for (const student of students.students.slice(0, 40)) {
      for (const value of [student.name, student.email, student.birth_date])
        expect(logs).not.toContain(value as string);
      const account = (student.bankAccounts as { back_account_number: string }[])[0];
      if (account) expect(logs).not.toContain(account.back_account_number);
    }
  });

  it('keeps its data in DATA_DIR across a restart without seeding again, listens on the loopback address only, and keeps DATA_DIR and its files to their owner', async () => {
    // The first test's folder as an earlier version left it: open to everyone, with a database and an
    // audit log anyone could read. Taking it over spares seeding a folder of its own.
    const dir = dataDir;
    chmodSync(dir, 0o755);
    writeFileSync(join(dir, 'audit.log'), '', { flag: 'a' });
    for (const file of ['audit.log', 'shared-local-instance.db']) chmodSync(join(dir, file), 0o644);
    const run = await start({ env: { DATA_DIR: dir } });
    expect(run.readyLine).not.toContain('seeded');
    const local = JSON.parse(readFileSync(join(dir, 'local-run.json'), 'utf8')) as Record<string, string>;
    const audited = readFileSync(join(dir, 'audit.log'), 'utf8').length;
    const bearer = await token(run.url);
    const status = (await (
      await fetch(`${run.url}/api/system`, { headers: { authorization: `Bearer ${bearer}` } })
    ).json()) as { counts: { students: number } };
    expect(status.counts.students).toBeGreaterThanOrEqual(120);
    await fetch(`${run.url}/api/students?items_per_page=1`, {
      headers: { authorization: `Bearer ${bearer}` },
    });
    expect(await until(() => readFileSync(join(dir, 'audit.log'), 'utf8').length > audited)).toBe(true);

    const sockets = listeningSockets(processTree(run.child.pid as number));
    // The API, DynamoDB Local and the local S3 are all found, and nothing listens anywhere but on loopback.
    expect(sockets.map((socket) => socket.port)).toEqual(
      expect.arrayContaining(
        [run.url, local.dynamodbEndpoint, local.s3Endpoint].map((url) => portOf(url as string)),
      ),
    );
    expect(sockets.filter((socket) => !LOOPBACK.has(socket.address))).toEqual([]);

    const entries = modes(dir);
    expect(entries.map((entry) => relative(dir, entry.path))).toEqual(
      expect.arrayContaining([
        '',
        'shared-local-instance.db',
        'audit.log',
        'local-run.lock',
        'local-run.json',
        's3',
      ]),
    );
    expect(entries.filter((entry) => entry.mode !== (entry.folder ? '700' : '600'))).toEqual([]);
    // Ctrl-C in the terminal, where the first test sent SIGTERM.
    run.child.kill('SIGINT');
    expect(await exited(run.child)).toBe(0);
    expect(await until(() => javaProcesses(dir) === '')).toBe(true);
  });

  it('refuses a DATA_DIR open to others that holds files it did not write, changing nothing', async () => {
    const dir = freshDataDir();
    chmodSync(dir, 0o755);
    writeFileSync(join(dir, 'notes.txt'), "not the run's");
    chmodSync(join(dir, 'notes.txt'), 0o644);
    const run = spawnStart({ env: { DATA_DIR: dir } });
    expect(await exited(run.child)).toBe(1);
    expect(run.output.join('').trim()).toBe(
      `DATA_DIR ${dir} is open to other users (mode 755) and holds notes.txt, which the local run did not write: set DATA_DIR to a folder of its own, or chmod 700 it.`,
    );
    expect(modes(dir).map((entry) => entry.mode)).toEqual(['755', '644']);
  });

  it('stops the API, the local S3 and DynamoDB Local when only npm start is sent SIGTERM', async () => {
    // npm 11 exits on SIGTERM and its shell goes without passing it on: the server has to notice.
    const run = await start({ npm: true });
    const npm = run.child.pid as number;
    const server = serverPid();
    const local = JSON.parse(readFileSync(join(dataDir, 'local-run.json'), 'utf8')) as Record<string, string>;
    expect(server).not.toBe(npm);
    expect(javaProcesses()).not.toBe('');

    process.kill(npm, 'SIGTERM');
    expect(await until(() => !running(server))).toBe(true);
    expect(await until(() => javaProcesses() === '')).toBe(true);
    // Nothing `npm start` started is left: not the shell, the server, Java or its watchdog.
    expect(await until(() => !groupRunning(npm))).toBe(true);
    await expect(fetch(run.url)).rejects.toThrow();
    await expect(fetch(local.s3Endpoint as string)).rejects.toThrow();
    expect(existsSync(join(dataDir, 'local-run.json'))).toBe(false);
    expect(existsSync(join(dataDir, 'local-run.lock'))).toBe(false);
    expect(run.output.join('\n')).toContain(`The process that started this run has gone (pid ${npm}`);
  });

  it('refuses a second start on the same DATA_DIR at once, leaving the first one as it was; killed outright, leaves no Java process, and the next start takes over its lock', async () => {
    const first = await start();
    const runFile = readFileSync(join(dataDir, 'local-run.json'), 'utf8');
    const second = spawnStart();
    let javas = 1;
    const count = setInterval(() => {
      javas = Math.max(javas, javaProcesses().split('\n').filter(Boolean).length);
    }, 50);
    const code = await exited(second.child);
    clearInterval(count);
    expect(code).toBe(1);
    expect(second.output.join('').trim()).toBe(
      `DATA_DIR ${dataDir} is in use by another npm start (pid ${lockHolder()}): stop that one first, or set DATA_DIR to another folder.`,
    );
    // It never started a DynamoDB Local of its own, and the first run's file is still there.
    expect(javas).toBe(1);
    expect(readFileSync(join(dataDir, 'local-run.json'), 'utf8')).toBe(runFile);
    expect((await token(first.url)).length).toBeGreaterThan(0);

    const owner = serverPid();
    expect(lockHolder()).toBe(owner);
    process.kill(owner, 'SIGKILL');
    expect(await until(() => javaProcesses() === '')).toBe(true);
    first.child.kill('SIGKILL');
    // The killed run could not remove its lock; the pid in it no longer runs, so the lock is stale.
    expect(lockHolder()).toBe(owner);
    const next = await start();
    expect(lockHolder()).not.toBe(owner);
    next.child.kill('SIGTERM');
    expect(await exited(next.child)).toBe(0);
    expect(await until(() => javaProcesses() === '')).toBe(true);
  });

  it('seeds the demo tenant again on the next start after Ctrl-C during the first seeding', async () => {
    const dir = freshDataDir();
    const first = spawnStart({ env: { DATA_DIR: dir } });
    expect(await until(() => first.output.join('').includes('Seeding the demo tenant'), 120_000)).toBe(true);
    // Well inside the seeding, which takes a few seconds (the table it writes is made before the line).
    await new Promise((resolve) => setTimeout(resolve, 300));
    // Ctrl-C: the terminal signals the whole job, DynamoDB Local included.
    process.kill(-(first.child.pid as number), 'SIGINT');
    await exited(first.child);
    expect(await until(() => javaProcesses(dir) === '')).toBe(true);
    expect(first.output.join('')).not.toContain('ready');

    const next = await start({ env: { DATA_DIR: dir } });
    expect(next.output.join('\n')).toContain("The demo tenant's seeding did not finish last time");
    expect(next.readyLine).toContain('demo data seeded');
    const bearer = await token(next.url);
    const status = (await (
      await fetch(`${next.url}/api/system`, { headers: { authorization: `Bearer ${bearer}` } })
    ).json()) as { counts: Record<string, number> };
    expect(status.counts.students).toBeGreaterThanOrEqual(120);
    expect(status.counts.teachers).toBeGreaterThanOrEqual(25);
    expect(status.counts.tutors).toBeGreaterThanOrEqual(60);
    expect(status.counts.staffs).toBeGreaterThanOrEqual(15);
    next.child.kill('SIGTERM');
    expect(await exited(next.child)).toBe(0);
    expect(await until(() => javaProcesses(dir) === '')).toBe(true);
  });

  it('reports a port in use before starting DynamoDB Local, suggesting PORT=0', async () => {
    const dir = freshDataDir();
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const { port } = blocker.address() as { port: number };
    const run = spawnStart({ env: { DATA_DIR: dir, PORT: String(port) } });
    let java = false;
    const watch = setInterval(() => {
      java ||= javaProcesses(dir) !== '';
    }, 50);
    const code = await exited(run.child);
    clearInterval(watch);
    blocker.close();
    expect(code).toBe(1);
    const stderr = run.output.join('').trim();
    expect(stderr.split('\n')).toHaveLength(1);
    expect(stderr).toContain(`Port ${port} on 127.0.0.1 is already in use`);
    expect(stderr).toContain('PORT=0');
    expect(java).toBe(false);
    expect(existsSync(join(dir, 'shared-local-instance.db'))).toBe(false);
    expect(existsSync(join(dir, 'local-run.lock'))).toBe(false);
  });

  /** Runs `npm start`'s entry with these settings until it stops, as a refused start does at once. */
  async function refusedStart(env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
    const run = spawnStart({ env: { LOG_LEVEL: 'silent', ...env } });
    const code = await exited(run.child);
    return { code, stderr: run.output.join('').trim() };
  }

  it('says in one line what to install when Java is missing', async () => {
    const bin = mkdtempSync(join(tmpdir(), 'no-java-'));
    symlinkSync(process.execPath, join(bin, 'node'));
    const { code, stderr } = await refusedStart({ PATH: bin });
    expect(code).toBe(1);
    expect(stderr.split('\n')).toHaveLength(1);
    expect(stderr).toContain('Java 17');
    rmSync(bin, { recursive: true, force: true });
  });

  it('says in one line what to install when Java cannot compile the launcher that keeps DynamoDB Local on loopback', async () => {
    // A Java runtime image without the compiler module, as Temurin's JRE is.
    const { code, stderr } = await refusedStart({
      JDK_JAVA_OPTIONS: '--limit-modules=java.se',
      DATA_DIR: freshDataDir(),
    });
    expect(code).toBe(1);
    expect(stderr.split('\n')).toHaveLength(1);
    expect(stderr).toContain('jdk.compiler');
    expect(stderr).toContain('JDK 17');
  });

  it('refuses an export schedule EventBridge could not run, naming the setting', async () => {
    const { code, stderr } = await refusedStart({ EXPORT_SCHEDULE: '* * * * *' });
    expect(code).toBe(2);
    expect(stderr).toContain('EXPORT_SCHEDULE: the minute must be one number');
  });

  it('refuses a DEMO_SIZE that is neither school, district nor a number of students', async () => {
    const { code, stderr } = await refusedStart({ DEMO_SIZE: 'huge' });
    expect(code).toBe(2);
    expect(stderr).toContain('DEMO_SIZE: must be school, district or a number of students');
  });

  it.runIf(process.platform === 'linux')(
    'says in one line that it cannot make a DATA_DIR the system refuses, such as one under /proc',
    async () => {
      const { code, stderr } = await refusedStart({ DATA_DIR: '/proc/school-data' });
      expect(code).toBe(1);
      expect(stderr.split('\n')).toHaveLength(1);
      expect(stderr).toContain(
        "DATA_DIR /proc/school-data failed to start: ENOENT: no such file or directory, mkdir '/proc/school-data'",
      );
    },
  );

  it('refuses a bad PORT with a clear message', async () => {
    const { code, stderr } = await refusedStart({ PORT: 'eighty' });
    expect(code).toBe(2);
    expect(stderr).toContain('PORT');
  });
});
