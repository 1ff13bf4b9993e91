// Child processes the benchmarks measure against: `npm start` (the local API on the benchmark's
// DynamoDB Local) and the bare node:http server. Each runs under tsx as `npm start` does, writes its
// output to a file (as a Lambda's log goes to its runtime, not to the load generator's process), is
// ready when it prints its address, and is stopped by pid when the benchmark ends, however it ends.
import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
/** Each running child and the folder of its log. */
const running = new Map<ChildProcess, string>();

process.once('exit', () => {
  for (const [child, logDir] of running) {
    child.kill('SIGKILL');
    rmSync(logDir, { recursive: true, force: true });
  }
});

export interface Service {
  url: string;
  stop(): Promise<void>;
}

/** Starts a TypeScript entry point of this repository and waits for the `http://` address it prints. */
export async function startService(
  entry: string,
  env: Record<string, string>,
  timeoutMs = 60_000,
): Promise<Service> {
  const logDir = mkdtempSync(`${tmpdir()}/school-bench-log-`);
  const logFile = `${logDir}/stdout.log`;
  const log = openSync(logFile, 'w');
  const child = spawn(process.execPath, ['--import', 'tsx', entry], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', log, 'pipe'],
  });
  closeSync(log);
  running.set(child, logDir);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let errors = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    errors = (errors + chunk.toString()).slice(-4000);
  });
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    }
    running.delete(child);
    rmSync(logDir, { recursive: true, force: true });
  };
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const deadline = Date.now() + timeoutMs;
      const poll = setInterval(() => {
        const found = /ready at (http:\/\/[^\s)]+)/.exec(readFileSync(logFile, 'utf8'));
        if (found?.[1]) resolve(found[1]);
        else if (child.exitCode !== null)
          reject(new Error(`${entry} exited with ${child.exitCode}: ${errors}`));
        else if (Date.now() > deadline) reject(new Error(`${entry} printed no address in ${timeoutMs} ms`));
        else return;
        clearInterval(poll);
      }, 100);
    });
    return { url, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
