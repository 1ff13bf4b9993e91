// One execution environment of a deployed function: a fresh Node process of the function's runtime major,
// started as Lambda's Node.js bootstrap starts it (its flags, the memory split by the function's memory
// size, the task root as working directory), with exactly the environment it is given. It answers
// invocations one at a time, and Lambda's time limit ends an invocation and the environment with it.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const runtimeScript = fileURLToPath(new URL('./lambda-runtime.mjs', import.meta.url));
/**
 * Lambda gives an on-demand function's init phase 10 seconds of a CPU share of its own; this machine's
 * CPUs are shared with whatever else runs, so loading gets more time here (cold start is benchmarked).
 */
const INIT_TIMEOUT_MS = 30_000;

export interface LambdaError {
  errorType: string;
  errorMessage: string;
  trace: string[];
}

export type InvocationResult = { ok: true; payload: unknown } | { ok: false; error: LambdaError };

export interface EnvironmentSettings {
  /** For messages: the function's construct path. */
  name: string;
  nodeBinary: string;
  taskRoot: string;
  memorySize: number;
  timeoutSeconds: number;
  invokedFunctionArn: string;
  /** The process's whole environment: nothing is inherited from the test run. */
  environment: Record<string, string>;
  /** Receives everything the function writes, as it comes. */
  onOutput(stream: 'stdout' | 'stderr', text: string): void;
}

type Message =
  | { kind: 'ready' }
  | { kind: 'init-error' | 'crash'; error: LambdaError }
  | { kind: 'result'; id: string; payload: string }
  | { kind: 'error'; id: string; error: LambdaError };

const versions = new Map<string, string | undefined>();

function versionOf(binary: string): string | undefined {
  if (!versions.has(binary)) {
    const probe = spawnSync(binary, ['--version'], { encoding: 'utf8' });
    versions.set(binary, probe.status === 0 ? probe.stdout.trim().replace(/^v/, '') : undefined);
  }
  return versions.get(binary);
}

/**
 * A Node binary of the runtime's major version (`nodejs22.x` wants Node 22): the one running the tests
 * when it is that major, otherwise the platform's `node-<os>-<cpu>` package from the registry.
 */
export function nodeForRuntime(runtime: string): { binary: string; version: string } {
  const major = /^nodejs(\d+)\.x$/.exec(runtime)?.[1];
  if (!major) throw new Error(`${runtime} is not a Lambda Node.js runtime`);
  const packaged = `node-${process.platform}-${process.arch}`;
  const candidates = [process.execPath];
  try {
    candidates.push(createRequire(import.meta.url).resolve(`${packaged}/bin/node`));
  } catch {
    // Not installed on this platform: only the running Node can serve.
  }
  for (const binary of candidates) {
    const version = versionOf(binary);
    if (version?.split('.')[0] === major) return { binary, version };
  }
  throw new Error(
    `The functions run on ${runtime}, but neither this Node (${process.version}) nor the package ${packaged} is Node ${major}: run the tests on Node ${major}, or install ${packaged}@${major} (npm ci does on Linux).`,
  );
}

/** The flags the nodejs runtime's bootstrap starts Node with; the heap follows the memory size. */
function bootstrapFlags(memorySize: number): string[] {
  const newSpace = Math.floor(memorySize / 10);
  return [
    '--expose-gc',
    '--max-http-header-size',
    '81920',
    `--max-semi-space-size=${Math.floor(newSpace / 2)}`,
    `--max-old-space-size=${memorySize - newSpace}`,
  ];
}

export class LambdaEnvironment {
  private readonly pending = new Map<string, (result: InvocationResult) => void>();
  private queue: Promise<unknown> = Promise.resolve();
  private readonly exited: Promise<void>;
  private crashed: LambdaError | undefined;

  private constructor(
    private readonly settings: EnvironmentSettings,
    private readonly child: ChildProcess,
  ) {
    this.exited = new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) resolve();
      else child.once('exit', () => resolve());
    });
    child.on('message', (message: Message) => {
      if (message.kind === 'crash') this.crashed = message.error;
      if (message.kind !== 'result' && message.kind !== 'error') return;
      const settle = this.pending.get(message.id);
      this.pending.delete(message.id);
      settle?.(
        message.kind === 'result'
          ? { ok: true, payload: JSON.parse(message.payload) }
          : { ok: false, error: message.error },
      );
    });
    // A channel that fails ends in 'exit' too, which settles what is pending.
    child.on('error', () => undefined);
    child.once('exit', (code, signal) => {
      const error: LambdaError = this.crashed ?? {
        errorType: 'Runtime.ExitError',
        errorMessage: `${settings.name}: the runtime exited (${signal ?? `code ${code}`})`,
        trace: [],
      };
      for (const settle of this.pending.values()) settle({ ok: false, error });
      this.pending.clear();
    });
  }

  /** Starts the process and loads the handler (a cold start); fails with the runtime's init error. */
  static async start(settings: EnvironmentSettings): Promise<LambdaEnvironment> {
    const child = spawn(settings.nodeBinary, [...bootstrapFlags(settings.memorySize), runtimeScript], {
      cwd: settings.taskRoot,
      env: settings.environment,
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    child.stdout?.setEncoding('utf8').on('data', (text: string) => settings.onOutput('stdout', text));
    child.stderr?.setEncoding('utf8').on('data', (text: string) => settings.onOutput('stderr', text));
    await new Promise<void>((resolve, reject) => {
      const fail = (message: string) => {
        clearTimeout(timer);
        child.kill('SIGKILL');
        reject(new Error(`${settings.name}: ${message}`));
      };
      const timer = setTimeout(
        () => fail(`init did not finish within ${INIT_TIMEOUT_MS} ms`),
        INIT_TIMEOUT_MS,
      );
      child.once('error', (error) => fail(error.message));
      child.once('exit', (code, signal) =>
        fail(`the runtime exited during init (${signal ?? `code ${code}`})`),
      );
      child.once('message', (message: Message) => {
        if (message.kind === 'ready') {
          clearTimeout(timer);
          resolve();
        } else if (message.kind === 'init-error' || message.kind === 'crash') {
          fail(`${message.error.errorType}: ${message.error.errorMessage}`);
        }
      });
    });
    child.removeAllListeners('exit');
    child.removeAllListeners('error');
    return new LambdaEnvironment(settings, child);
  }

  get alive(): boolean {
    return this.child.connected && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** One invocation, after the ones before it; the function's timeout ends it and the environment. */
  invoke(event: unknown, requestId: string = randomUUID()): Promise<InvocationResult> {
    const run = this.queue.then(() => this.send(event, requestId));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private send(event: unknown, requestId: string): Promise<InvocationResult> {
    if (!this.alive) {
      return Promise.resolve({
        ok: false,
        error: {
          errorType: 'Runtime.ExitError',
          errorMessage: `${this.settings.name} has stopped`,
          trace: [],
        },
      });
    }
    const timeoutMs = this.settings.timeoutSeconds * 1000;
    return new Promise<InvocationResult>((resolve) => {
      const timer = setTimeout(() => {
        this.pending.delete(requestId);
        this.child.kill('SIGKILL');
        resolve({
          ok: false,
          error: {
            errorType: 'Sandbox.Timedout',
            errorMessage: `Task timed out after ${this.settings.timeoutSeconds.toFixed(2)} seconds`,
            trace: [],
          },
        });
      }, timeoutMs);
      this.pending.set(requestId, (result) => {
        clearTimeout(timer);
        resolve(result);
      });
      this.child.send({
        id: requestId,
        requestId,
        event,
        deadline: Date.now() + timeoutMs,
        invokedFunctionArn: this.settings.invokedFunctionArn,
        traceId: `Root=1-${Math.floor(Date.now() / 1000).toString(16)}-${randomUUID().replace(/-/g, '').slice(0, 24)}`,
      });
    });
  }

  async stop(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
    await this.exited;
  }
}
