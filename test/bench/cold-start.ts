// Section 1, cold start: every handler bundled exactly as Lambda ships it (infra/bundling.ts), then
// imported by fresh node processes, side by side with an empty handler and an SDK-only bundle. Each
// process is paired with an SDK-only one started just before it, so a busy moment of the machine
// hits both sides of a ratio alike.
import { spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { esbuildOptions, handlerEntry } from '../../infra/bundling';
import { fallbackRoute, routeById, routes } from '../../shared/routes';
import { median, round } from './stats';

/** Held to: each handler ready within this multiple of the SDK-only bundle. */
export const COLD_START_TARGET = 1.15;

export const REFERENCES = { empty: '(empty handler)', sdkOnly: '(DynamoDB document client only)' } as const;

export interface ColdStart {
  bundle: string;
  bytes: number;
  /** Median ms from the process's start until the handler module is imported. */
  readyMs: number;
  /** Median ms of the import alone. */
  importMs: number;
  /** Median ms from spawning the process to its exit, as the parent sees it. */
  processMs: number;
  /** Median over the runs of readyMs over the SDK-only bundle's, measured right before it. */
  ratio: number;
  /** The same for importMs. */
  importRatio: number;
}

/** Run by each fresh process: times the import from inside, where process start-up is performance.now()'s zero. */
const PROBE = `const start = performance.now();
await import(process.argv[1]);
const ready = performance.now();
process.stdout.write(JSON.stringify({ start, ready }));`;

interface Sample {
  ready: number;
  import: number;
  process: number;
}

function importOnce(file: string): Promise<Sample> {
  return new Promise((resolve, reject) => {
    const spawned = performance.now();
    const child = spawn(process.execPath, ['--input-type=module', '-e', PROBE, pathToFileURL(file).href], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { PATH: process.env.PATH ?? '', AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      err += chunk.toString();
    });
    child.once('error', reject);
    child.once('exit', (code) => {
      const exitedAt = performance.now();
      if (code !== 0) return reject(new Error(`importing ${file} failed (${code}): ${err.slice(0, 500)}`));
      const { start, ready } = JSON.parse(out) as { start: number; ready: number };
      resolve({ ready, import: ready - start, process: exitedAt - spawned });
    });
  });
}

interface Bundled {
  file: string;
  /** Bytes of the bundle by npm package (or by folder for the service's own code). */
  parts: Map<string, number>;
}

async function bundle(name: string, entry: string, outdir: string): Promise<Bundled> {
  const { metafile } = await build({
    ...esbuildOptions,
    mainFields: [...esbuildOptions.mainFields],
    entryPoints: { [name]: entry },
    outdir,
    outExtension: { '.js': '.mjs' },
    metafile: true,
    logLevel: 'error',
  });
  const parts = new Map<string, number>();
  for (const output of Object.values(metafile.outputs)) {
    for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
      const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input)?.[1];
      const part = pkg ?? `${input.split('/').slice(0, 2).join('/')}/`;
      parts.set(part, (parts.get(part) ?? 0) + bytesInOutput);
    }
  }
  return { file: `${outdir}/${name}.mjs`, parts };
}

export interface ColdStarts {
  runs: number;
  bundles: ColdStart[];
  /** What a list handler's bundle holds beyond the SDK-only bundle, largest first, in bytes. */
  extraOverSdk: { part: string; bytes: number }[];
}

export async function measureColdStarts(outdir: string, runs: number): Promise<ColdStarts> {
  const fixture = (file: string) => fileURLToPath(new URL(`fixtures/${file}`, import.meta.url));
  const entries: [string, string][] = [
    [REFERENCES.empty, fixture('empty-handler.ts')],
    [REFERENCES.sdkOnly, fixture('sdk-only-handler.ts')],
    ...[...routes, fallbackRoute].map((route): [string, string] => [route.handler, handlerEntry(route)]),
  ];
  const bundles = new Map<string, Bundled>();
  for (const [name, entry] of entries) {
    bundles.set(name, await bundle(name.replace(/\W+/g, '-').replace(/^-|-$/g, ''), entry, outdir));
  }
  const files = new Map([...bundles].map(([name, { file }]) => [name, file]));
  const reference = files.get(REFERENCES.sdkOnly) as string;
  const samples = new Map<string, Sample[]>([...files.keys()].map((name) => [name, []]));
  const ratios = new Map<string, { ready: number; import: number }[]>(
    [...files.keys()].map((name) => [name, []]),
  );
  // A first import of each warms the file cache, as a Lambda's code is on local disk when it starts.
  for (const file of files.values()) await importOnce(file);
  // Each bundle's process runs right after one of the SDK-only bundle, and is compared with it: the
  // pair sees the same moment of the machine, so other work on it cancels out of the ratio.
  for (let run = 0; run < runs; run++) {
    for (const [name, file] of files) {
      if (file === reference) continue;
      const sdk = await importOnce(reference);
      const own = await importOnce(file);
      samples.get(REFERENCES.sdkOnly)?.push(sdk);
      samples.get(name)?.push(own);
      ratios.get(name)?.push({ ready: own.ready / sdk.ready, import: own.import / sdk.import });
    }
  }
  const summary = (name: string) => {
    const taken = samples.get(name) ?? [];
    const paired = ratios.get(name) ?? [];
    return {
      ready: median(taken.map((s) => s.ready)),
      import: median(taken.map((s) => s.import)),
      process: median(taken.map((s) => s.process)),
      ratio: paired.length ? median(paired.map((r) => r.ready)) : 1,
      importRatio: paired.length ? median(paired.map((r) => r.import)) : 1,
    };
  };
  const sdkParts = bundles.get(REFERENCES.sdkOnly)?.parts ?? new Map<string, number>();
  const listParts = bundles.get(routeById('list-students').handler)?.parts ?? new Map<string, number>();
  const extraOverSdk = [...listParts]
    .map(([part, bytes]) => ({ part, bytes: bytes - (sdkParts.get(part) ?? 0) }))
    .filter(({ bytes }) => bytes > 0)
    .sort((a, b) => b.bytes - a.bytes);
  const measured = [...files].map(([name, file]) => {
    const own = summary(name);
    return {
      bundle: name,
      bytes: statSync(file).size,
      readyMs: round(own.ready),
      importMs: round(own.import),
      processMs: round(own.process),
      ratio: round(own.ratio, 3),
      importRatio: round(own.importRatio, 3),
    };
  });
  return { runs, bundles: measured, extraOverSdk };
}
