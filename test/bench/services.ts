// Child processes the benchmarks measure against: `npm start` (the local API on the benchmark's
// DynamoDB Local) and the bare node:http server. Each runs under tsx as `npm start` does, is ready
// when it prints its address, and is stopped by pid when the benchmark ends, however it ends.
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const running = new Set<ChildProcess>();

process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
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
  const child = spawn(process.execPath, ['--import', 'tsx', entry], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
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
  };
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      const timer = setTimeout(
        () => reject(new Error(`${entry} printed no address in ${timeoutMs} ms`)),
        timeoutMs,
      );
      child.once('exit', (code) => reject(new Error(`${entry} exited with ${code}: ${errors}`)));
      child.stdout?.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const found = /http:\/\/[^\s)]+/.exec(out);
        if (found) {
          clearTimeout(timer);
          resolve(found[0]);
        }
      });
    });
    // From here on the service's access log is read and dropped, so a full pipe never stalls it.
    child.stdout?.removeAllListeners('data');
    child.stdout?.resume();
    return { url, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
