// Runs `cdk synth` offline, as a deploy does, into a directory outside the repository, and keeps the
// result for as long as the sources it was made from stay the same: bundling every function takes
// half a minute, and a second run over the same sources would only make the same assembly again.
//
// Outside the repository on purpose: Node resolves a bundle's imports upwards from its directory, and
// a bundle under the repository would find the project's node_modules, which Lambda does not have.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const cdkCli = join(root, 'node_modules/aws-cdk/bin/cdk');
/** What the CDK app reads: its code, the handlers and what they import, the dependencies and settings. */
const SOURCE_DIRS = ['infra', 'shared', 'functions'];
const SOURCE_FILES = ['package.json', 'package-lock.json', 'cdk.json', 'tsconfig.json'];
const SYNTH_TIMEOUT_MS = 10 * 60_000;

function filesUnder(dir: string): string[] {
  return readdirSync(join(root, dir), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && !entry.name.endsWith('.test.ts'))
    .map((entry) => relative(root, join(entry.parentPath, entry.name)))
    .sort();
}

/** A digest of every file the synthesized assembly depends on. */
export function sourceDigest(): string {
  const hash = createHash('sha256');
  for (const file of [...SOURCE_DIRS.flatMap(filesUnder), ...SOURCE_FILES]) {
    hash
      .update(`${file}\0`)
      .update(readFileSync(join(root, file)))
      .update('\0');
  }
  return hash.digest('hex').slice(0, 20);
}

function runSynth(outdir: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cdkCli, 'synth', '--quiet', '--output', outdir], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-20_000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const timer = setTimeout(() => child.kill('SIGKILL'), SYNTH_TIMEOUT_MS);
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else reject(new Error(`cdk synth failed (${signal ?? `exit ${code}`}):\n${output}`));
    });
  });
}

/** Assemblies kept per checkout: the current sources' and the one before, for switching back and forth. */
const KEPT = 2;

/**
 * The directory of a cloud assembly synthesized from the current sources: one kept from an earlier run
 * when nothing it depends on changed, a new one otherwise.
 */
export async function synthesizedAssembly(): Promise<string> {
  const checkout = createHash('sha256').update(root).digest('hex').slice(0, 12);
  const base = join(tmpdir(), `school-api-assembly-${checkout}`);
  const digest = sourceDigest();
  const directory = join(base, digest);
  if (existsSync(join(directory, 'manifest.json'))) {
    const now = new Date();
    utimesSync(directory, now, now);
    return directory;
  }
  const partial = join(base, `${digest}.partial-${process.pid}`);
  rmSync(partial, { recursive: true, force: true });
  try {
    await runSynth(partial);
    rmSync(directory, { recursive: true, force: true });
    renameSync(partial, directory);
  } finally {
    rmSync(partial, { recursive: true, force: true });
  }
  prune(base);
  return directory;
}

/** Removes all but the most recently used assemblies, and partial ones no running synth is writing. */
function prune(base: string) {
  const entries = readdirSync(base).map((name) => ({ name, used: statSync(join(base, name)).mtimeMs }));
  const complete = entries
    .filter((entry) => !entry.name.includes('.partial-'))
    .sort((a, b) => b.used - a.used);
  const stale = [
    ...complete.slice(KEPT),
    ...entries.filter((entry) => {
      const pid = /\.partial-(\d+)$/.exec(entry.name)?.[1];
      return pid !== undefined && !isRunning(Number(pid));
    }),
  ];
  for (const entry of stale) rmSync(join(base, entry.name), { recursive: true, force: true });
}

/** Whether a synth another test run started is still writing its partial assembly. */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
