// Starts moto's server (Python moto, which the machine image ships beside cfn-lint) as a local Secrets
// Manager over real HTTP, for the deployed tenant's key rotation. Undefined when moto is not installed.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';

export interface MotoServer {
  endpoint: string;
  stop(): Promise<void>;
}

export const hasMotoServer = () => spawnSync('moto_server', ['--help'], { stdio: 'ignore' }).status === 0;

export async function startMotoServer(timeoutMs = 20_000): Promise<MotoServer> {
  const server: ChildProcess = spawn('moto_server', ['-H', '127.0.0.1', '-p', '0'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const endpoint = await new Promise<string>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`moto_server did not start: ${output}`)), timeoutMs);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Running on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    server.stdout?.on('data', read);
    server.stderr?.on('data', read);
    server.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`moto_server exited with code ${code}: ${output}`));
    });
  });
  return {
    endpoint,
    stop: () =>
      new Promise((resolve) => {
        if (server.exitCode !== null) return resolve();
        server.once('exit', () => resolve());
        server.kill();
      }),
  };
}
