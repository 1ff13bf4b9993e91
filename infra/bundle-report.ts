// Bundles every function exactly as the stack ships it (infra/bundling.ts) and prints each bundle's
// size; exits non-zero when one outgrows the budget, since load time at cold start grows with size.
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { fallbackRoute, routes } from '../shared/routes';
import { esbuildOptions, exportEntry, handlerEntry, signingKeyEntry } from './bundling';

/** Minified JavaScript per function; today's API bundles are about 0.5 MiB. */
const BUDGET_BYTES = 1.5 * 1024 * 1024;
/**
 * The docs page and its assets carry Swagger UI's 1.9 MiB script; they serve people reading the docs,
 * cached for a year, not the integrators' request path.
 */
const DOCS_BUDGET_BYTES = 3 * 1024 * 1024;

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

const entries: Record<string, string> = {
  ...Object.fromEntries([...routes, fallbackRoute].map((route) => [route.id, handlerEntry(route)])),
  'signing-key-resource': signingKeyEntry,
  'scheduled-export': exportEntry,
};

// One build for all entries: esbuild parses the shared modules once, and each bundle is still whole.
const { outputFiles = [] } = await build({
  ...esbuildOptions,
  mainFields: [...esbuildOptions.mainFields],
  entryPoints: entries,
  outdir: 'bundles',
  write: false,
});
const output = (file: string) => outputFiles.find((f) => f.path.endsWith(`/bundles/${file}`))?.contents;
const docsFunctions = new Set(
  routes.filter((route) => route.handler.startsWith('docs/')).map((route) => route.id),
);
const rows = Object.keys(entries).map((name) => {
  const code = output(`${name}.js`);
  if (!code) throw new Error(`esbuild gave no bundle for ${name}`);
  return {
    name,
    budget: docsFunctions.has(name) ? DOCS_BUDGET_BYTES : BUDGET_BYTES,
    js: code.length,
    gzip: gzipSync(code).length,
    map: output(`${name}.js.map`)?.length ?? 0,
  };
});

const width = Math.max(...rows.map((row) => row.name.length));
console.log(
  `${'function'.padEnd(width)}  ${'bundle'.padStart(11)}  ${'gzipped'.padStart(11)}  ${'source map'.padStart(11)}`,
);
for (const row of rows) {
  const over = row.js > row.budget ? `  over its ${kib(row.budget)} budget` : '';
  console.log(
    `${row.name.padEnd(width)}  ${kib(row.js).padStart(11)}  ${kib(row.gzip).padStart(11)}  ${kib(row.map).padStart(11)}${over}`,
  );
}
const overBudget = rows.filter((row) => row.js > row.budget);
if (overBudget.length > 0) {
  console.error(`${overBudget.length} bundle(s) over budget`);
  process.exit(1);
}
