// Section 1, cold start: every handler bundled exactly as Lambda ships it (infra/bundling.ts), then
// imported by fresh node processes, side by side with an empty handler, an SDK-only bundle and the
// SDK-only bundle with Powertools Logger, Metrics or both (what those packages add on their own). Each
// process is paired with an SDK-only one started just before it, so a busy moment of the machine
// hits both sides of a ratio alike. Each bundle's metafile says what its bytes are.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { type FunctionBundle, isSdkPart, partsOf } from '../../infra/bundles';
import { esbuildOptions, handlerEntry } from '../../infra/bundling';
import type { Route } from '../../shared/route';
import { fallbackRoute, routeById, routes } from '../../shared/routes';
import { median, round } from './stats';

/**
 * Held to: the import of every read handler within 1.10× the SDK-only bundle's, and of every handler
 * within 1.25×. The import, not the time to ready: Node's own start-up before it is the same for every
 * bundle, so the import is where what a handler carries shows.
 */
export const COLD_START_TARGET = { read: 1.1, every: 1.25 } as const;

/** The import ratio a handler is held to: the read target when its route only reads, else the other. */
export const importLimit = (access: Route['access']) =>
  access === 'read' ? COLD_START_TARGET.read : COLD_START_TARGET.every;

export const REFERENCES = {
  empty: '(empty handler)',
  sdkOnly: '(DynamoDB document client only)',
  logger: '(SDK-only + Powertools Logger)',
  metrics: '(SDK-only + Powertools Metrics)',
  powertools: '(SDK-only + Powertools Logger and Metrics)',
} as const;

/** The references that hold Powertools, each with the SDK-only bundle under it. */
export const POWERTOOLS_REFERENCES = [REFERENCES.logger, REFERENCES.metrics, REFERENCES.powertools] as const;

/** Bytes of one part of a bundle: an npm package, or a folder of the service's own code (ending in `/`). */
export interface Part {
  part: string;
  bytes: number;
}

export interface ColdStart {
  bundle: string;
  /** What the handler's route does (shared/routes.ts); none for the references. */
  access: Route['access'] | undefined;
  bytes: number;
  /** Bytes of the AWS SDK's packages in the bundle. */
  sdkBytes: number;
  /** The three parts outside the AWS SDK that weigh most, heaviest first. */
  heaviest: Part[];
  /** Median ms from the process's start until the handler module is imported. */
  readyMs: number;
  /** Median ms of the import alone. */
  importMs: number;
  /** Median ms from spawning the process to its exit, as the parent sees it. */
  processMs: number;
  /** Median over the runs of readyMs over the SDK-only bundle's, measured right before it. */
  ratio: number;
  /** The same for importMs: the ratio the target judges. */
  importRatio: number;
  /** The import ratio the handler is held to; none for the references. */
  limit: number | undefined;
  met: boolean;
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
  bundle: FunctionBundle;
}

async function bundle(
  name: string,
  route: Route | undefined,
  entry: string,
  outdir: string,
): Promise<Bundled> {
  const base = name.replace(/\W+/g, '-').replace(/^-|-$/g, '');
  const { metafile } = await build({
    ...esbuildOptions,
    mainFields: [...esbuildOptions.mainFields],
    entryPoints: { [base]: entry },
    outdir,
    outExtension: { '.js': '.mjs' },
    metafile: true,
    logLevel: 'error',
  });
  const inputs = new Map<string, number>();
  for (const output of Object.values(metafile.outputs)) {
    for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
      inputs.set(input, (inputs.get(input) ?? 0) + bytesInOutput);
    }
  }
  const file = `${outdir}/${base}.mjs`;
  return { file, bundle: { name, route, code: readFileSync(file), map: undefined, inputs } };
}

export interface ColdStarts {
  runs: number;
  bundles: ColdStart[];
  /** What a list handler's bundle holds beyond the SDK-only bundle, by part, largest first. */
  beyondSdkOnly: { bundle: string; parts: Part[] };
}

export async function measureColdStarts(
  outdir: string,
  runs: number,
  progress: (message: string) => void = () => {},
): Promise<ColdStarts> {
  const fixture = (file: string) => fileURLToPath(new URL(`fixtures/${file}`, import.meta.url));
  const entries: [string, Route | undefined, string][] = [
    [REFERENCES.empty, undefined, fixture('empty-handler.ts')],
    [REFERENCES.sdkOnly, undefined, fixture('sdk-only-handler.ts')],
    [REFERENCES.logger, undefined, fixture('sdk-logger-handler.ts')],
    [REFERENCES.metrics, undefined, fixture('sdk-metrics-handler.ts')],
    [REFERENCES.powertools, undefined, fixture('sdk-powertools-handler.ts')],
    ...[...routes, fallbackRoute].map((route): [string, Route, string] => [
      route.handler,
      route,
      handlerEntry(route),
    ]),
  ];
  const bundles = new Map<string, Bundled>();
  for (const [name, route, entry] of entries) bundles.set(name, await bundle(name, route, entry, outdir));
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
    progress(`run ${run + 1} of ${runs}: ${files.size - 1} bundles, each paired with the SDK-only one`);
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
  const partsNamed = (name: string) => {
    const found = bundles.get(name);
    return found ? partsOf(found.bundle) : [];
  };
  const sdkOnlyParts = new Map(partsNamed(REFERENCES.sdkOnly).map(({ part, bytes }) => [part, bytes]));
  const list = routeById('list-students').handler;
  const beyondSdkOnly = partsNamed(list)
    .map(({ part, bytes }) => ({ part, bytes: bytes - (sdkOnlyParts.get(part) ?? 0) }))
    .filter(({ bytes }) => bytes > 0)
    .sort((a, b) => b.bytes - a.bytes);
  const measured = [...bundles].map(([name, { bundle: built }]): ColdStart => {
    const own = summary(name);
    const parts = partsOf(built);
    const importRatio = round(own.importRatio, 3);
    const limit = built.route && importLimit(built.route.access);
    return {
      bundle: name,
      access: built.route?.access,
      bytes: built.code.length,
      sdkBytes: parts.filter(({ part }) => isSdkPart(part)).reduce((sum, { bytes }) => sum + bytes, 0),
      heaviest: parts.filter(({ part }) => !isSdkPart(part)).slice(0, 3),
      readyMs: round(own.ready),
      importMs: round(own.import),
      processMs: round(own.process),
      ratio: round(own.ratio, 3),
      importRatio,
      limit,
      met: limit === undefined || importRatio <= limit,
    };
  });
  return { runs, bundles: measured, beyondSdkOnly: { bundle: list, parts: beyondSdkOnly } };
}
