// Prints each function bundle's size, how much of it is the AWS SDK, and the three other parts that weigh
// most in it (esbuild's metafile); exits non-zero when one outgrows the budget, since load time at cold
// start grows with size.
import { gzipSync } from 'node:zlib';
import { buildFunctionBundles, type FunctionBundle, isSdkPart, partsOf } from './bundles';

/**
 * Minified JavaScript per function that serves a route: about 0.3 MiB, of which the AWS SDK is two thirds.
 * A handler that outgrows it pays for it in every cold start.
 */
const ROUTE_BUDGET_BYTES = 350 * 1024;
/**
 * A record write also carries the check of a client registered with schools (shared/records/school-writes.ts)
 * besides the writer, its group's request schema and the token check: a little more than a read. The
 * writer checks references into a group from every group's description (shared/domain/groups.ts), so each
 * group adds about 1 KiB to every write, and it files a record under what a listed reference names (under
 * 1 KiB): 368 KiB holds the sixteen groups, the largest writes at 366.5.
 */
const WRITE_BUDGET_BYTES = 368 * 1024;
/** The functions no client waits on: the scheduled export, the signing-key resource, the audit forwarder. */
const BUDGET_BYTES = 1.5 * 1024 * 1024;
/**
 * The change events' functions (`event-stream`, `event-delivery`): no client waits on them either, but
 * a burst of table changes or deliveries starts many of them cold, and each start delays the events it
 * carries. They keep to a read's budget.
 */
const EVENTS_BUDGET_BYTES = ROUTE_BUDGET_BYTES;
/**
 * The docs page and its assets carry Swagger UI's 1.9 MiB script; they serve people reading the docs,
 * cached for a year, not the integrators' request path.
 */
const DOCS_BUDGET_BYTES = 3 * 1024 * 1024;

const budgetOf = ({ name, route }: FunctionBundle) => {
  if (route === undefined) return name.startsWith('event-') ? EVENTS_BUDGET_BYTES : BUDGET_BYTES;
  if (route.handler.startsWith('docs/')) return DOCS_BUDGET_BYTES;
  return route.access === 'write' ? WRITE_BUDGET_BYTES : ROUTE_BUDGET_BYTES;
};

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

const rows = (await buildFunctionBundles()).map((bundle) => {
  const parts = partsOf(bundle);
  return {
    name: bundle.name,
    budget: budgetOf(bundle),
    js: bundle.code.length,
    gzip: gzipSync(bundle.code).length,
    sdk: parts.filter(({ part }) => isSdkPart(part)).reduce((sum, { bytes }) => sum + bytes, 0),
    heaviest: parts
      .filter(({ part }) => !isSdkPart(part))
      .slice(0, 3)
      .map(({ part, bytes }) => `${part} ${kib(bytes)}`)
      .join(', '),
  };
});

const width = Math.max(...rows.map((row) => row.name.length));
console.log(
  `${'function'.padEnd(width)}  ${'bundle'.padStart(11)}  ${'gzipped'.padStart(11)}  ${'AWS SDK'.padStart(11)}  heaviest other parts`,
);
for (const row of rows) {
  const over = row.js > row.budget ? `  over its ${kib(row.budget)} budget` : '';
  console.log(
    `${row.name.padEnd(width)}  ${kib(row.js).padStart(11)}  ${kib(row.gzip).padStart(11)}  ${kib(row.sdk).padStart(11)}  ${row.heaviest}${over}`,
  );
}
const overBudget = rows.filter((row) => row.js > row.budget);
if (overBudget.length > 0) {
  console.error(`${overBudget.length} bundle(s) over budget`);
  process.exit(1);
}
