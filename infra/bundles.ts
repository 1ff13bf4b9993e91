// Builds every function's bundle exactly as the stack ships it (infra/bundling.ts), in one esbuild run
// with a metafile, and says what each bundle holds: by npm package, and by the service's own folders.
// The bundle report prints it; infra/bundles.test.ts holds each bundle to what its operation uses.
import { build } from 'esbuild';
import type { Route } from '../shared/route';
import { fallbackRoute, routes } from '../shared/routes';
import {
  auditForwarderEntry,
  esbuildOptions,
  eventDeliveryEntry,
  eventStreamEntry,
  exportEntry,
  handlerEntry,
  signingKeyEntry,
} from './bundling';

export interface FunctionBundle {
  name: string;
  /** The route a bundle serves; none for the functions no client calls (export, signing key, audit, events). */
  route: Route | undefined;
  /** Minified JavaScript. */
  code: Uint8Array;
  map: Uint8Array | undefined;
  /** Every input file in the bundle, relative to the repository, with the bytes it adds. */
  inputs: Map<string, number>;
}

/** What a bundle holds by part: an npm package (`zod`, `@aws-sdk/core`), or a folder of ours (`shared/auth/`). */
export function partOf(input: string): string {
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input)?.[1];
  return pkg ?? `${input.split('/').slice(0, -1).join('/')}/`;
}

/** The AWS SDK's packages, which every function that reaches AWS carries. */
export const isSdkPart = (part: string) => part.startsWith('@aws-sdk/') || part.startsWith('@smithy/');

export function partsOf(bundle: FunctionBundle): { part: string; bytes: number }[] {
  const parts = new Map<string, number>();
  for (const [input, bytes] of bundle.inputs)
    parts.set(partOf(input), (parts.get(partOf(input)) ?? 0) + bytes);
  return [...parts].map(([part, bytes]) => ({ part, bytes })).sort((a, b) => b.bytes - a.bytes);
}

/** A function the stack deploys: its name (a route's id, or what it does) and the module Lambda loads. */
export interface FunctionEntry {
  name: string;
  /** The route a function serves; none for the functions no client calls (export, signing key, audit, events). */
  route: Route | undefined;
  entry: string;
}

/** Every function of a tenant's stack, each once. */
export const functionEntries: readonly FunctionEntry[] = [
  ...[...routes, fallbackRoute].map((route) => ({ name: route.id, route, entry: handlerEntry(route) })),
  { name: 'signing-key-resource', route: undefined, entry: signingKeyEntry },
  { name: 'scheduled-export', route: undefined, entry: exportEntry },
  { name: 'audit-forwarder', route: undefined, entry: auditForwarderEntry },
  { name: 'event-stream', route: undefined, entry: eventStreamEntry },
  { name: 'event-delivery', route: undefined, entry: eventDeliveryEntry },
];

export async function buildFunctionBundles(): Promise<FunctionBundle[]> {
  // One build for all entries: esbuild parses the shared modules once, and each bundle is still whole.
  const { outputFiles = [], metafile } = await build({
    ...esbuildOptions,
    mainFields: [...esbuildOptions.mainFields],
    entryPoints: Object.fromEntries(functionEntries.map(({ name, entry }) => [name, entry])),
    outdir: 'bundles',
    write: false,
    metafile: true,
    logLevel: 'error',
  });
  const file = (path: string) => outputFiles.find((f) => f.path.endsWith(`/${path}`))?.contents;
  return functionEntries.map(({ name, route }) => {
    const code = file(`bundles/${name}.js`);
    const meta = metafile.outputs[`bundles/${name}.js`];
    if (!code || !meta) throw new Error(`esbuild gave no bundle for ${name}`);
    const inputs = new Map(
      Object.entries(meta.inputs).map(([input, { bytesInOutput }]) => [input, bytesInOutput]),
    );
    return { name, route, code, map: file(`bundles/${name}.js.map`), inputs };
  });
}
