// Writes docs/benchmarks.md from one run's results: the machine, each section's figures beside its
// target, and for each missed target by how much and where the time or the bytes go.
import { isSdkPart } from '../../infra/bundles';
import type { AuditCost } from './audit-cost';
import { PAGE_ITEMS } from './bare-calls';
import {
  COLD_START_TARGET,
  type ColdStart,
  type ColdStarts,
  POWERTOOLS_REFERENCES,
  REFERENCES,
} from './cold-start';
import type { DistrictResults } from './district';
import type { EventResults } from './events';
import type { ExportMeasure } from './export-child';
import type { FieldDataset, FieldSelection } from './field-selection';
import type { Machine } from './machine';
import { type Operation, OVERHEAD_TARGET, type Overhead } from './overhead';
import { coldStartProfile, getPathProfile } from './profiles';
import { RATE_LIMIT_TARGET_MS, type RateLimitCost } from './rate-limit-cost';
import type { JumpCost, ReadCost } from './read-cost';
import { REVOCATION_TARGET_MS, type RevocationCost } from './revocation-cost';
import type { SeededTable } from './seed-students';
import { round } from './stats';
import { table } from './table';
import { THROUGHPUT_TARGET, type Throughput } from './throughput';
import type { Tokens } from './tokens';

export interface Results {
  machine: Machine;
  quick: boolean;
  minutes: number;
  loadAtEnd: number;
  coldStart: ColdStarts;
  overhead: { samples: number; repeats: number; results: Overhead[] };
  readCost: ReadCost & { tables: Omit<SeededTable, 'sortedIds'>[] };
  throughput: { connections: number; seconds: number; repeats: number; results: Throughput[] };
  tokens: Tokens;
  /** Absent from runs made before `fields=` existed. */
  fieldSelection?: { samples: number; results: FieldSelection[] };
  /** Absent from runs made before the bench measured the audit trail. */
  audit?: { samples: number; results: AuditCost[] };
  /** Absent from runs made before every route checked revoked sign-ins. */
  revocation?: { samples: number; repeats: number; result: RevocationCost };
  /** Absent from runs made before every route admitted its caller under a rate limit. */
  rateLimit?: { result: RateLimitCost };
  /** Absent from runs made before the bench seeded a district. */
  district?: DistrictResults;
  /** Absent from runs made before change events were pushed to webhooks. */
  events?: EventResults;
}

/** A Markdown table; numbers align right, and the columns listed in `text` (the first, unless told) left. */
const kb = (bytes: number) => `${round(bytes / 1024, 1)} KB`;
/** Within this share of its limit, a result can go either way between runs on a busy machine. */
const AT_THE_LIMIT = 0.03;
const verdict = (met: boolean, measured?: number, limit?: number) =>
  (met ? 'met' : '**missed**') +
  (measured !== undefined && limit !== undefined && Math.abs(measured / limit - 1) < AT_THE_LIMIT
    ? ' (at the limit)'
    : '');
const pct = (value: number) => `${round(value * 100, 1)} %`;
/** Milliseconds added, signed: on a busy machine a difference of medians can come out below zero. */
const plusMs = (value: number) => `${value < 0 ? '−' : '+'}${Math.abs(value)} ms`;

/** The handlers, without the reference bundles. */
const handlersOf = (c: ColdStarts) => c.bundles.filter((b) => b.access !== undefined);
const readHandlersOf = (c: ColdStarts) => handlersOf(c).filter((b) => b.access === 'read');
/** The service's own code: infra/bundles.ts names its parts by folder, ending in `/`. */
const isOwnPart = (part: string) => part.endsWith('/');
const partsText = (parts: { part: string; bytes: number }[]) =>
  parts.map(({ part, bytes }) => `${part} ${kb(bytes)}`).join(', ');
const operationName = (op: Operation) => (op === 'list' ? 'page of 50 students' : 'student by id');

function coldStartRow(label: string, held: ColdStart[], limit: number): string[] {
  const ratios = held.map((b) => b.importRatio);
  const worst = Math.max(...ratios);
  const furthest = held.find((b) => b.importRatio === worst);
  const over = held.filter((b) => b.importRatio > limit).length;
  return [
    label,
    `import ≤ ${limit}× SDK-only`,
    `${Math.min(...ratios)}× to ${worst}×` +
      (over && furthest
        ? ` (${over} of ${held.length} over; furthest \`${furthest.bundle}\`, ${pct(worst / limit - 1)} over)`
        : ''),
    verdict(over === 0, worst, limit),
  ];
}

function summary(r: Results): string {
  const overhead = (op: Operation) => r.overhead.results.find((o) => o.operation === op) as Overhead;
  const rate = (op: string) => r.throughput.results.find((t) => t.operation === op) as Throughput;
  const rows = [
    coldStartRow('1. Cold start, read handlers', readHandlersOf(r.coldStart), COLD_START_TARGET.read),
    coldStartRow('1. Cold start, every handler', handlersOf(r.coldStart), COLD_START_TARGET.every),
    ...(['list', 'get'] as const).map((op) => [
      `2. Overhead, ${operationName(op)} (p50)`,
      `≤ +${OVERHEAD_TARGET[op]} ms over the bare server (${overhead(op).allowedP50Ms} ms)`,
      `${overhead(op).stack.p50} ms vs ${overhead(op).bareServer.p50} ms (${plusMs(overhead(op).addedMs)}; ${plusMs(overhead(op).overCallMs)} over the bare call)`,
      verdict(overhead(op).met, overhead(op).addedMs, OVERHEAD_TARGET[op]),
    ]),
    ...(r.revocation
      ? [
          [
            '2. Revocation check, student by id (p50)',
            `≤ +${REVOCATION_TARGET_MS} ms, a person's token over the client's`,
            `${r.revocation.result.person.p50} ms vs ${r.revocation.result.client.p50} ms (${plusMs(r.revocation.result.addedMs)})`,
            verdict(r.revocation.result.met, r.revocation.result.addedMs, REVOCATION_TARGET_MS),
          ],
        ]
      : []),
    ...(r.rateLimit
      ? [
          [
            '2. Rate limit, admitting a request (p50)',
            `≤ +${RATE_LIMIT_TARGET_MS} ms, no round trip on most requests`,
            `${r.rateLimit.result.admitUs.p50} µs; ${r.rateLimit.result.claims} claims in ${r.rateLimit.result.requests} requests`,
            verdict(r.rateLimit.result.met),
          ],
        ]
      : []),
    [
      '3. Read cost of a page, all sizes and depths',
      'identical',
      [...new Set(r.readCost.pages.map((p) => `${p.totalRcu} RCU`))].join(', '),
      verdict(r.readCost.flat),
    ],
    ...(['list', 'get'] as const).map((op) => [
      `4. Throughput, ${op}`,
      `≥ ${THROUGHPUT_TARGET}× bare server`,
      `${rate(op).stack.rps} vs ${rate(op).bare.rps} req/s (pairs: ${rate(op).ratio}×)`,
      verdict(rate(op).met, rate(op).ratio, THROUGHPUT_TARGET),
    ]),
    [
      '5. Token verification (p50)',
      'keys imported once',
      `${round(r.tokens.verifyFirst.p50 * 1000)} µs first, ${round(r.tokens.verify.p50 * 1000)} µs again (${round(r.tokens.verifyImportingKey.p50 * 1000)} µs importing per request)`,
      'reported',
    ],
    ...(r.audit
      ? [
          [
            '7. Audit event per request (p50)',
            'inside the overhead targets of 2.',
            r.audit.results.map((x) => `${x.operation} ${x.total.p50} ms`).join(', '),
            'included in 2.',
          ],
        ]
      : []),
    ...(r.district ? districtSummary(r.district) : []),
  ];
  return table(['Benchmark', 'Target', 'Measured', 'Result'], rows, 'all');
}

/** What a list handler carries beyond the SDK-only bundle, by part, and which kind of part weighs most. */
function beyondSdkOnly(c: ColdStarts): string[] {
  const { bundle, parts } = c.beyondSdkOnly;
  const list = c.bundles.find((b) => b.bundle === bundle);
  const sdk = c.bundles.find((b) => b.bundle === REFERENCES.sdkOnly);
  const [largest] = parts;
  if (!list || !sdk || !largest) return [];
  const bytesOf = (held: (part: string) => boolean) =>
    parts.filter(({ part }) => held(part)).reduce((sum, { bytes }) => sum + bytes, 0);
  const extra = bytesOf(() => true);
  const sdkExtra = bytesOf(isSdkPart);
  const own = bytesOf(isOwnPart);
  const packages = extra - sdkExtra - own;
  const heaviest = (held: (part: string) => boolean) =>
    partsText(parts.filter(({ part }) => held(part)).slice(0, 3));
  return [
    `A list handler (\`${bundle}\`) is ${kb(list.bytes - sdk.bytes)} larger than the SDK-only bundle and its import`,
    `takes ${round(list.importMs - sdk.importMs)} ms longer (${list.importRatio}×). What it carries beyond the SDK-only bundle, by part:`,
    '',
    table(
      ['Part', 'Bytes', 'Share of the extra'],
      parts.slice(0, 10).map(({ part, bytes }) => [part, bytes, pct(bytes / extra)]),
    ),
    '',
    `Those parts add ${kb(extra)}: npm packages other than the AWS SDK ${kb(packages)} (${pct(packages / extra)}; ${heaviest((part) => !isSdkPart(part) && !isOwnPart(part)) || 'none'}),`,
    `the service's own code ${kb(own)} (${pct(own / extra)}; ${heaviest(isOwnPart) || 'none'}), and more of the AWS SDK than the`,
    `SDK-only bundle holds ${kb(sdkExtra)} (${pct(sdkExtra / extra)}). The largest single part is ${largest.part}, ${pct(largest.bytes / extra)} of the extra.`,
    '',
  ];
}

/** What Powertools Logger and Metrics add to the SDK-only bundle, beside the read handlers' budget. */
function powertoolsCost(c: ColdStarts): string[] {
  const sdk = c.bundles.find((b) => b.bundle === REFERENCES.sdkOnly);
  const held = POWERTOOLS_REFERENCES.map((name) => c.bundles.find((b) => b.bundle === name)).filter(
    (b): b is ColdStart => b !== undefined,
  );
  const both = held.find((b) => b.bundle === REFERENCES.powertools);
  const reads = readHandlersOf(c).map((b) => b.importRatio);
  if (!sdk || !both || reads.length === 0) return [];
  const budget = COLD_START_TARGET.read - 1;
  return [
    '### What Powertools adds',
    '',
    'The SDK-only bundle with Powertools Logger and Metrics set up to write the lines `shared/log.ts` and',
    '`shared/metrics.ts` write (built on first use, as the handlers build theirs), so what the packages would',
    'cost at cold start shows apart from the handlers. The service writes those lines itself instead',
    '([deploy.md](deploy.md#logs-metrics-and-traces) says why); these references keep the comparison:',
    '',
    table(
      ['Reference', 'Size', 'Beyond SDK-only', 'Import ms', 'Import × SDK', 'Share of the read budget'],
      held.map((b) => [
        b.bundle,
        kb(b.bytes),
        kb(b.bytes - sdk.bytes),
        b.importMs,
        `${b.importRatio}×`,
        pct((b.importRatio - 1) / budget),
      ]),
    ),
    '',
    `Logger and Metrics together take the import to ${both.importRatio}× the SDK-only bundle's: ${pct((both.importRatio - 1) / budget)} of the`,
    `${round(budget * 100)} % a read handler may add over it (${COLD_START_TARGET.read}×), before any of the handler's own code, middy or jose.`,
    `The read handlers measured ${Math.min(...reads)}× to ${Math.max(...reads)}×.`,
    '',
  ];
}

/** Section 1, from the cold-start measurements alone, so `--only cold-start` can print it. */
export function coldStartSection(c: ColdStarts): string {
  const handlers = handlersOf(c);
  const missed = handlers
    .filter((b) => !b.met)
    .sort((a, b) => b.importRatio / (b.limit ?? 1) - a.importRatio / (a.limit ?? 1));
  const dash = (value: string | number | undefined) => value ?? '—';
  const lines = [
    '## 1. Cold start',
    '',
    `Each handler bundled by \`infra/bundling.ts\` (ESM, minified, SDK inside), then imported by ${c.runs} fresh`,
    '`node` processes each (the SDK-only bundle by many more). *Ready* is the time from the process start to the',
    "handler module imported (the probe reads `performance.now()`, whose zero is the process's start);",
    '*import* is the import alone; *process* is spawn to exit as the parent sees it. Medians. The handlers',
    'build their services (SDK client, configuration, keys) on the first request, as in Lambda, so none of',
    'that is in these figures. The SDK-only bundle holds the document client built on first use, the way',
    'the handlers build theirs. Every process is paired with an SDK-only process started just before it;',
    'the ratios are the medians of those pairs, so a busy moment of the machine hits both sides alike.',
    '',
    `The targets judge the import: a read handler's (its route's \`access\` is \`read\` in \`shared/routes.ts\`) within`,
    `${COLD_START_TARGET.read}× the SDK-only bundle's, every handler's within ${COLD_START_TARGET.every}×. The time to ready adds Node's own start-up,`,
    'the same for every bundle, so the import is where what a handler carries shows.',
    '',
    table(
      [
        'Bundle',
        'Access',
        'Ready ms',
        'Import ms',
        'Process ms',
        'Ready × SDK',
        'Import × SDK',
        'Import limit',
        'Result',
      ],
      c.bundles.map((b) => [
        b.bundle,
        dash(b.access),
        b.readyMs,
        b.importMs,
        b.processMs,
        b.ratio,
        b.importRatio,
        b.limit === undefined ? '—' : `${b.limit}×`,
        b.limit === undefined ? 'reference' : verdict(b.met, b.importRatio, b.limit),
      ]),
      [0, 1, 8],
    ),
    '',
  ];
  if (missed.length > 0) {
    lines.push(
      `**Missed** by ${missed.length} of ${handlers.length} handlers (${missed.filter((b) => b.access === 'read').length} of them read handlers), the furthest over first, with the part`,
      'outside the AWS SDK that weighs most in each:',
      '',
      table(
        ['Handler', 'Access', 'Import × SDK', 'Limit', 'Over by', 'Size', 'Heaviest other part'],
        missed.map((b) => [
          b.bundle,
          dash(b.access),
          `${b.importRatio}×`,
          `${b.limit}×`,
          pct(b.importRatio / (b.limit ?? 1) - 1),
          kb(b.bytes),
          partsText(b.heaviest.slice(0, 1)),
        ]),
        [0, 1, 6],
      ),
      '',
    );
  } else {
    lines.push(
      `Every read handler's import is within ${COLD_START_TARGET.read}× the SDK-only bundle's, and every handler's within ${COLD_START_TARGET.every}×.`,
      '',
    );
  }
  lines.push(
    ...coldStartProfile,
    ...powertoolsCost(c),
    '### What the bundles weigh',
    '',
    "Each bundle's bytes by part, from esbuild's metafile (`infra/bundles.ts` names the parts): an npm package,",
    "or a folder of the service's own code (ending in `/`). *AWS SDK* is its `@aws-sdk/*` and `@smithy/*`",
    'packages, which every function that reaches AWS carries; the last column the three heaviest other parts.',
    '',
    table(
      ['Bundle', 'Size', 'AWS SDK', 'SDK share', 'Heaviest other parts'],
      c.bundles.map((b) => [
        b.bundle,
        kb(b.bytes),
        kb(b.sdkBytes),
        pct(b.sdkBytes / b.bytes),
        partsText(b.heaviest),
      ]),
      [0, 4],
    ),
    '',
    ...beyondSdkOnly(c),
  );
  return lines.join('\n');
}

function overheadSection(r: Results): string {
  const o = r.overhead;
  const lines = [
    '## 2. Per-request overhead',
    '',
    `One page of 50 students (\`GET /api/students\`) and one student by id, fetched ${o.samples} times in each of`,
    `${o.repeats} run${o.repeats === 1 ? '' : 's'}, three ways in turns on the same DynamoDB Local: through the whole stack over HTTP`,
    '(`npm start`: node:http, the API Gateway stand-in building a v2 event, middy, token verification, the',
    'repository, serialisation, the access log line); from a bare node:http server making the same single',
    'DynamoDB call; and by that document-client call itself (the Query the repository sends, `Limit` 51,',
    'strongly consistent; for the get, GetItem). Sequential requests on one keep-alive connection.',
    'Milliseconds, medians over the runs of each run’s p50 and p95.',
    '',
    `The targets judge the stack's own overhead: its p50 over the bare server's, at most +${OVERHEAD_TARGET.list} ms for the list`,
    `and +${OVERHEAD_TARGET.get} ms for the get. The bare server makes the same single DynamoDB call and answers over the same`,
    'HTTP, so what is left is what the stack itself does per request. The bare call is reported beside it:',
    'the bare server over the bare call is the HTTP hop any server adds, which no change to the stack',
    'removes, and the stack over the bare call is the two together.',
    '',
    table(
      [
        'Operation',
        'Stack p50',
        'Stack p95',
        'Bare server p50',
        'Bare server p95',
        'Bare call p50',
        'Bare call p95',
        'HTTP hop (server − call)',
        'Stack − call',
        'Stack − server (judged)',
        'Allowed p50',
        'Result',
      ],
      o.results.map((x) => [
        x.operation,
        x.stack.p50,
        x.stack.p95,
        x.bareServer.p50,
        x.bareServer.p95,
        x.bareCall.p50,
        x.bareCall.p95,
        x.httpHopMs,
        x.overCallMs,
        x.addedMs,
        x.allowedP50Ms,
        verdict(x.met, x.addedMs, OVERHEAD_TARGET[x.operation]),
      ]),
      [0, 11],
    ),
    '',
  ];
  const get = o.results.find((x) => x.operation === 'get');
  for (const x of o.results) {
    const target = OVERHEAD_TARGET[x.operation];
    const what =
      x.operation === 'list'
        ? "the count read for `total_items` (a Query of the group's counter shards, made beside the page's Query, in parallel), token verification, the event, middy, the records reordered to the specification’s field order, the envelope and the log line"
        : 'token verification, the event, middy, the record reordered and serialised, and the log line';
    lines.push(
      `${x.operation === 'list' ? 'List' : 'Get'}: the stack takes ${plusMs(x.addedMs)} at p50 over the bare server, against +${target} ms allowed.`,
      `That difference is the stack's own work: ${what}. Over the bare call the stack takes ${plusMs(x.overCallMs)}; the HTTP hop alone (bare server over bare call) is ${plusMs(x.httpHopMs)}.`,
      x.operation === 'list' && get && get.addedMs > 0 && x.addedMs > get.addedMs
        ? `The get shows the stack's fixed cost per request (${get.addedMs} ms over its bare server); the other ${round(x.addedMs - get.addedMs)} ms are the list's own: mostly the count read, a second request to DynamoDB Local that competes with the Query for the same two cores, then serialising 50 records.`
        : '',
      x.met
        ? ''
        : `**Missed** by ${round(x.addedMs - target)} ms (${pct(x.addedMs / target - 1)} over the +${target} ms allowed).`,
      '',
    );
  }
  return lines.join('\n');
}

function readCostSection(r: Results): string {
  const c = r.readCost;
  const deepest = c.jumps.reduce<JumpCost | undefined>(
    (most, j) => (most && most.keysWalked >= j.keysWalked ? most : j),
    undefined,
  );
  const perThousand = deepest ? round((deepest.indexRcu / deepest.keysWalked) * 1000, 1) : 0;
  const firstPage = c.pages[0]?.totalRcu ?? 0;
  return [
    '## 3. Read cost',
    '',
    'Tables of 1,000, 10,000 and 100,000 students, every student a copy of one demo student',
    `(${c.itemBytes} bytes as DynamoDB counts them) under a new id, so a page costs the same wherever it is unless`,
    'the way it is read differs. Read through the repository the handlers use, with its read-capacity',
    'report (`ReturnConsumedCapacity: INDEXES`). DynamoDB Local does report ConsumedCapacity; the',
    '*computed* column is the same figure from item sizes as DynamoDB bills a Query: the sizes of the items',
    'read, summed and rounded up to 4 KB, one unit per 4 KB strongly consistent (the table reads) and half',
    'a unit eventually consistent (the keys index, which only allows that). A list page reads its 50',
    'records and one more (to know whether a next page exists) and the group’s counter shards for `total_items`.',
    '',
    table(
      [
        'Students',
        'Cursors followed',
        'Requests',
        'Page Query RCU',
        'Computed RCU',
        'Counter RCU',
        'Total RCU',
      ],
      c.pages.map((p) => [
        p.students,
        p.depth,
        p.requests,
        p.pageRcu,
        p.computedPageRcu,
        p.countRcu,
        p.totalRcu,
      ]),
    ),
    '',
    c.flat
      ? `Flat: every page costs ${c.pages[0]?.totalRcu} RCU whatever the table size and however deep the cursor. A cursor names the id the page starts after, a key condition (\`sk > :after\`), so DynamoDB starts reading at the page; nothing before it is read.`
      : '**Missed**: the page cost differs across sizes or depths (see the table).',
    ...(c.tables.length < 3 ? ['', 'This was a quick run: the 100,000-student table was left out.'] : []),
    '',
    '### What a `page=N` jump costs',
    '',
    '`page=N` without a cursor has to find where page N starts: the repository walks the keys-only index',
    `(\`${c.keyEntryBytes}\` bytes an entry) over the (N−1)×50 keys before it, or, past the middle of the list, from`,
    'its end over the keys after them (the count, which every list reads, tells which is nearer), then',
    'reads the page like a cursor does. Its cost grows with the distance to the nearer end, at most half',
    'the list:',
    '',
    table(
      [
        'Students',
        'Page',
        'From',
        'Keys walked',
        'Index requests',
        'Index RCU',
        'Computed',
        'Page RCU',
        'Total RCU',
      ],
      c.jumps.map((j) => [
        j.students,
        j.page,
        j.from,
        j.keysWalked,
        j.indexRequests,
        j.indexRcu,
        j.computedIndexRcu,
        j.pageRcu,
        j.totalRcu,
      ]),
    ),
    '',
    `About ${perThousand} RCU per 1,000 keys walked, on top of the page itself` +
      (deepest
        ? `: page ${deepest.page} costs ${deepest.totalRcu} RCU against ${firstPage} for page 1 or any page reached by cursor.`
        : '.'),
    'Clients that read a list through should follow `next_cursor`, which costs the same at any depth;',
    '`page=N` is for jumping, and its price is the walk.',
    '',
    'DynamoDB Local differs from DynamoDB in one way that shows here: it stops an index Query page at 1 MB',
    'of the *base items* rather than of the projected keys, so it answers about 1,000 keys a request where',
    'DynamoDB answers up to 1 MB of 52-byte entries (about 20,000). The units consumed are the same; the',
    'number of round trips in AWS is smaller than the *Index requests* column shows.',
    '',
    'Seeding (parallel BatchWriteItem, counter set once): ' +
      c.tables.map((t) => `${t.students.toLocaleString('en')} students in ${t.seconds} s`).join(', ') +
      '.',
    '',
  ].join('\n');
}

function throughputSection(r: Results): string {
  const t = r.throughput;
  const lines = [
    '## 4. Throughput',
    '',
    `autocannon, ${t.connections} connections, ${t.seconds} s a run, ${t.repeats} pairs of runs: each run of the stack right`,
    'before or after one of the bare server; rates and latencies are medians of the runs, the ratio the',
    'median of the pairs’ ratios. The stack is `npm start` (`tsx infra/local/start.ts`) on the',
    "benchmark's DynamoDB Local; the bare server is plain node:http making the same single DynamoDB call.",
    'Load generator, server and DynamoDB Local share the machine’s cores.',
    '',
    table(
      [
        'Operation',
        'Stack req/s',
        'Stack p50 ms',
        'Stack p99 ms',
        'Bare req/s',
        'Bare p50 ms',
        'Bare p99 ms',
        'Stack × bare',
        'Pairs from–to',
        'Result',
      ],
      t.results.map((x) => [
        x.operation,
        x.stack.rps,
        x.stack.p50Ms,
        x.stack.p99Ms,
        x.bare.rps,
        x.bare.p50Ms,
        x.bare.p99Ms,
        x.ratio,
        `${x.ratioRange[0]}–${x.ratioRange[1]}`,
        verdict(x.met),
      ]),
    ),
    '',
  ];
  if (t.results.some((x) => x.ratioRange[1] > 1)) {
    lines.push(
      'The stack cannot serve more than a bare server making the same call with less work; pairs above',
      '1× show how far other work on the machine moved single runs, which is why the medians of pairs count.',
      '',
    );
  }
  for (const x of t.results) {
    if (x.met) continue;
    lines.push(
      `**Missed** for ${x.operation}: ${x.ratio}× against ${THROUGHPUT_TARGET}×, ${pct(1 - x.ratio / THROUGHPUT_TARGET)} short.` +
        (x.operation === 'list'
          ? ' Each list request also reads the counter shards for `total_items`, a second DynamoDB request the bare server does not make, and DynamoDB Local is the bottleneck both servers share.'
          : ' The stack’s own work per request is CPU the bare server does not spend, on cores shared with DynamoDB Local and the load generator; the table below says what each step takes.'),
      '',
    );
  }
  lines.push(...getPathProfile);
  return lines.join('\n');
}

/** Section 6: bytes and latency of a page of students with and without `fields=`, on each dataset. */
export function fieldSelectionSection(f: Results['fieldSelection']): string {
  if (!f) return '';
  const datasets = [...new Set(f.results.map((x) => x.dataset ?? 'demo students'))];
  const of = (dataset: FieldDataset) => f.results.filter((x) => (x.dataset ?? 'demo students') === dataset);
  const whole = (dataset: FieldDataset) => of(dataset)[0]?.bytes ?? 1;
  const photos = of('with ID photos');
  const [photoWhole, photoless, roster] = photos;
  return [
    '## 6. Field selection',
    '',
    `A page of ${PAGE_ITEMS} students over HTTP through the whole local stack, ${f.samples} samples of each`,
    'variant sent in turn; `fields=` keeps the listed fields and the id. Bytes are of the response body.',
    'First the demo students as seeded, whose photos are small or empty; then the same page with each',
    'student given an ID photo of the size schools keep: a JPEG-shaped payload of 15 to 40 KB (JFIF header,',
    'then bytes as incompressible as JPEG data, derived by SHA-256 from the student’s place on the page, so',
    'every run sends the same; `test/bench/id-photos.ts`), Base64 in `photobase64`. The photos are put back',
    'as they were before the later sections run.',
    '',
    table(
      ['Page', 'Variant', '`fields=`', 'Body bytes', 'Share of whole', 'p50 ms', 'p95 ms'],
      datasets.flatMap((dataset) =>
        of(dataset).map((x) => [
          dataset,
          x.variant,
          x.fields === undefined
            ? '(none)'
            : x.fields.length > 40
              ? `${x.fields.split(',').length} fields`
              : `\`${x.fields}\``,
          x.bytes,
          pct(x.bytes / whole(dataset)),
          x.p50Ms,
          x.p95Ms,
        ]),
      ),
      [0, 1, 2],
    ),
    '',
    ...(photoWhole && photoless && roster
      ? [
          `With ID photos a whole page is ${kb(photoWhole.bytes)}; leaving out \`photobase64\` moves ${kb(photoless.bytes)}`,
          `(${pct(photoless.bytes / photoWhole.bytes)}) and a roster of four fields ${kb(roster.bytes)} (${pct(roster.bytes / photoWhole.bytes)}), at ${photoless.p50Ms} and ${roster.p50Ms} ms`,
          `p50 against ${photoWhole.p50Ms} ms for the whole page. DynamoDB reads the whole items either way: read units`,
          'are billed on the items read, not on the fields returned.',
          '',
        ]
      : []),
  ].join('\n');
}

/** Section 2, continued: what checking a person's token against the revoked sign-ins costs a read. */
export function revocationSection(v: Results['revocation']): string {
  if (!v) return '';
  const x = v.result;
  return [
    '### The revocation check',
    '',
    "Every route refuses a person's token once its sign-in is revoked or its account signed out",
    '(`shared/auth/revoked-sign-ins.ts`): each process keeps the revocations of the last access-token',
    'lifetime, read with one Query at most every `REVOCATION_REFRESH_SECONDS`, and looks each token up in',
    `memory. One student by id through the whole stack, ${v.samples} times in each of ${v.repeats} run${v.repeats === 1 ? '' : 's'}, in turns with the demo`,
    "administrator's token (a sign-in of its own, checked) and the client's token (no person: never",
    `checked), with ${x.revokedSignIns} revoked sign-ins and ${x.signedOutAccounts} signed-out accounts in the \`REVOKED\` partition. In process,`,
    'one look-up against the list in hand, and the strongly consistent Query that reads the list again.',
    `Load average ${x.loadAverage} when it ended: the two tokens take turns, so their difference holds on a busy machine.`,
    '',
    table(
      ['What', 'p50', 'p95'],
      [
        ["get by id, client's token (ms)", x.client.p50, x.client.p95],
        ["get by id, a person's token, checked (ms)", x.person.p50, x.person.p95],
        ['one look-up, list in hand (µs)', x.checkUs.p50, x.checkUs.p95],
        [
          `the Query that refreshes the list, once every ${x.refreshSeconds} s (ms)`,
          x.refresh.p50,
          x.refresh.p95,
        ],
      ],
    ),
    '',
    `A person's token over the client's: ${plusMs(x.addedMs)} at p50, against at most +${REVOCATION_TARGET_MS} ms: ${verdict(x.met, x.addedMs, REVOCATION_TARGET_MS)}.`,
    "The difference holds all a person's token costs beyond a client's (its claims, the audit event's",
    "person fields) as well as the check; the check's own part is the look-up. The refreshing Query",
    'falls to one request in every `REVOCATION_REFRESH_SECONDS` of a busy function, so it shows at p95 and',
    'beyond, never at p50.',
    '',
  ].join('\n');
}

/** Section 2, continued: what admitting a caller under its client's rate limit costs a request. */
export function rateLimitSection(v: Results['rateLimit']): string {
  if (!v) return '';
  const x = v.result;
  return [
    '### The rate limit',
    '',
    "Every route that takes a token admits its caller under its client's rate limit",
    '(`shared/wiring/rate-limit.ts`, docs/sso.md#rate-limits): the policy looked up in the list in hand, a',
    "unit of the caller's lease spent or a batch claimed from the minute's shared count (one UpdateItem), and",
    `the header fields written. In process on DynamoDB Local, a client at ${x.limit} a minute sending ${x.requests}`,
    'requests one after another, as a nightly sync does:',
    '',
    table(
      ['What', 'p50', 'p95'],
      [
        ['admitting a request (µs)', x.admitUs.p50, x.admitUs.p95],
        [`a request that claimed a batch (ms; ${x.claims} of ${x.requests})`, x.claimMs.p50, x.claimMs.p95],
      ],
    ),
    '',
    `Mean ${x.meanUs} µs a request, the claims included. Against at most +${RATE_LIMIT_TARGET_MS} ms at p50 and no`,
    `round trip on most requests: ${verdict(x.met)} (${x.claims} round trips in ${x.requests} requests).`,
    '',
  ].join('\n');
}

/** Section 7: one request's audit event, built and appended as the local run does, against the overhead targets. */
export function auditSection(a: Results['audit'], overhead?: Overhead[]): string {
  if (!a) return '';
  const lines = [
    '## 7. Audit trail',
    '',
    'Every request to a route of person records writes one audit event (`shared/http/api.ts`): who read or',
    'changed which records, by id, never their content. Measured in process, as the local run spends it:',
    `${a.samples} events for each operation, each built from the request and the records the handler returned`,
    '(`shared/audit/audit-event.ts`), then serialised and appended as one JSON line to the local audit file',
    '(`fileAuditLog`, `DATA_DIR/audit.log`). A deployed function builds the same event and writes the same line',
    'to standard output, whence the forwarder takes it to the audit log group: no call and no client in the',
    'function. Milliseconds.',
    '',
    table(
      [
        'Operation',
        'Records',
        'Line bytes',
        'Build p50',
        'Build p95',
        'Append p50',
        'Append p95',
        'Per request p50',
        'Per request p95',
        'Share of the overhead allowed',
      ],
      a.results.map((x) => [
        operationName(x.operation),
        x.records,
        x.lineBytes,
        x.build.p50,
        x.build.p95,
        x.append.p50,
        x.append.p95,
        x.total.p50,
        x.total.p95,
        `${pct(x.shareOfTarget)} of +${OVERHEAD_TARGET[x.operation]} ms`,
      ]),
    ),
    '',
    'Students are person records, so every request through the stack in section 2 built and appended its',
    'audit event: the stack figures there include this cost, and the overhead targets are judged with it.',
  ];
  for (const x of a.results) {
    const measured = overhead?.find((o) => o.operation === x.operation);
    lines.push(
      `${x.operation === 'list' ? 'List' : 'Get'}: ${x.total.p50} ms at p50 of the +${OVERHEAD_TARGET[x.operation]} ms allowed` +
        (measured ? `; the stack took ${plusMs(measured.addedMs)} over the bare server with it.` : '.'),
    );
  }
  lines.push('');
  return lines.join('\n');
}

function tokensSection(r: Results): string {
  const k = r.tokens;
  const ms = (l: { p50: number; p95: number }) => [l.p50, l.p95];
  return [
    '## 5. Tokens',
    '',
    table(
      ['What', 'Samples', 'p50 ms', 'p95 ms'],
      [
        [
          '`POST /api/sso/token` (client_credentials), whole stack over HTTP',
          k.endpoint.n,
          ...ms(k.endpoint),
        ],
        ['client secret check alone (scrypt, N=2^15, r=8)', k.secretCheck.n, ...ms(k.secretCheck)],
        ['signing a token alone (ES256, key imported once)', k.sign.n, ...ms(k.sign)],
        [
          'verifying a token the first time a function sees it (ES256, keys imported once)',
          k.verifyFirst.n,
          ...ms(k.verifyFirst),
        ],
        [
          'verifying it again, while the key set that verified it is in hand: every later request',
          k.verify.n,
          ...ms(k.verify),
        ],
        [
          'verifying with the public key imported for each request (not done; for comparison)',
          k.verifyImportingKey.n,
          ...ms(k.verifyImportingKey),
        ],
      ],
    ),
    '',
    `The token endpoint's latency is the scrypt check of the client secret (${k.secretCheck.p50} of ${k.endpoint.p50} ms at p50),`,
    'as designed: client secrets are stored only as slow hashes, and unknown clients are checked against a',
    `decoy hash so they cost the same. Signing is ${k.sign.p50} ms. A function checks a token's signature and`,
    `claims the first time it sees it, in ${round(k.verifyFirst.p50 * 1000)} µs at p50 with the keys imported once per cold start`,
    `(importing the key per request would cost ${round(k.verifyImportingKey.p50 * 1000)} µs), and keeps the result with the key set`,
    `that verified it, so the client's later requests with the same token cost ${round(k.verify.p50 * 1000)} µs until the key set is read again.`,
    '',
  ].join('\n');
}

/** A district page's p50 may be this many times the demo school's (issue: district scale). */
export const DISTRICT_P50_TARGET = 1.5;
/** A page in the middle or at the end of a walk may cost this share more or less than the first. */
export const FLAT_CAPACITY = 0.1;

/**
 * The district's whole export may peak at this many times the demo school's heap: flat, but for the few
 * fields a person that the OneRoster tables need of each other (docs/exports.md).
 */
export const EXPORT_HEAP_TARGET = 1.5;

/** Section 8's rows of the summary: how many routes kept their p50, how many walks read flat, the export's heap. */
function districtSummary(d: DistrictResults): string[][] {
  const timed = d.routes.flatMap((route) =>
    'status' in route.demo || 'status' in route.district ? [] : [route.district.p50 / route.demo.p50],
  );
  const refused = d.routes.length - timed.length;
  const within = timed.filter((ratio) => ratio <= DISTRICT_P50_TARGET).length;
  const flat = d.capacity.filter((c) =>
    [c.middle, c.last].every((units) => Math.abs(units / c.first - 1) <= FLAT_CAPACITY),
  ).length;
  return [
    [
      `8. District of ${d.students.toLocaleString('en')} students, p50 per route`,
      `every route answers, within ${DISTRICT_P50_TARGET}× the demo school's`,
      `${within} of ${d.routes.length} within${refused ? `; ${refused} refused` : '; none refused'}`,
      verdict(within === d.routes.length),
    ],
    [
      '8. Read units of a page along a walk',
      `flat (±${FLAT_CAPACITY * 100} %)`,
      `${flat} of ${d.capacity.length} collections flat`,
      verdict(flat === d.capacity.length),
    ],
    ...(d.exports ? [exportSummary(d.exports)] : []),
  ];
}

function exportSummary({ demo, district }: NonNullable<DistrictResults['exports']>): string[] {
  const ratio = round(district.peakHeapMiB / demo.peakHeapMiB);
  return [
    '8. Whole export of the district, peak heap',
    `flat: within ${EXPORT_HEAP_TARGET}× the demo school's`,
    `${round(district.peakHeapMiB, 1)} MiB vs ${round(demo.peakHeapMiB, 1)} MiB (${ratio}×)`,
    verdict(ratio <= EXPORT_HEAP_TARGET, ratio, EXPORT_HEAP_TARGET),
  ];
}

export function eventsSection(e: Results['events']): string {
  if (!e) return '';
  return [
    '## 9. Change events',
    '',
    'A receiver on 127.0.0.1 subscribed through the API (`students.updated`). Latency: from the answer to a',
    "replace (the write committed) to its event reaching the receiver, one write at a time, through the local run's",
    "stream reader (DynamoDB Local polled every 100 ms a shard) and delivery queue, the deployed functions' code.",
    'Throughput: a replay of kept events to a new subscription, from the request to the last delivery, the',
    'records in parallel as the queue allows (32 in flight); every delivery signed and its attempt kept.',
    '',
    table(
      ['Measure', 'Result'],
      [
        [
          `Write to delivery, p50 / p95 / p99 (${e.latency.samples} writes)`,
          `${e.latency.p50} / ${e.latency.p95} / ${e.latency.p99} ms`,
        ],
        [
          `Replay of ${e.throughput.events} events`,
          `${e.throughput.seconds} s: ${e.throughput.perSecond} deliveries/s`,
        ],
      ],
    ),
    '',
  ].join('\n');
}

export function districtSection(d: Results['district']): string {
  if (!d) return '';
  const cell = (side: DistrictResults['routes'][number]['demo']) =>
    'status' in side ? `answers ${side.status}` : `${side.p50} / ${side.p99} ms`;
  const rows = d.routes.map((route) => {
    const { demo, district } = route;
    if ('status' in district || 'status' in demo) {
      return [route.label, cell(demo), cell(district), '', '**missed**: the district is refused'];
    }
    const ratio = round(district.p50 / demo.p50);
    return [
      route.label,
      cell(demo),
      cell(district),
      `${ratio}×`,
      verdict(ratio <= DISTRICT_P50_TARGET, ratio, DISTRICT_P50_TARGET),
    ];
  });
  const flat = (c: DistrictResults['capacity'][number]) =>
    [c.middle, c.last].every((units) => Math.abs(units / c.first - 1) <= FLAT_CAPACITY);
  return [
    '## 8. District scale',
    '',
    `A generated district of ${d.students.toLocaleString('en')} students (` +
      Object.entries(d.counts)
        .filter(([, n]) => n > 0)
        .map(([group, n]) => `${n.toLocaleString('en')} ${group}`)
        .join(', ') +
      `), seeded by \`DEMO_SIZE=${d.students} npm start\` through the OneRoster import in ${d.seedSeconds} s, on a DynamoDB Local of its own, beside the demo school. Every route is asked of both, one after the other, ${d.samples} times; a page holds 100 objects. A deep page is four fifths through a walk that follows the cursors or \`Link\` next links; \`offset=\` is the same depth asked without them.`,
    '',
    table(
      [
        'Request',
        'Demo school p50 / p99',
        'District p50 / p99',
        'District ÷ demo (p50)',
        `≤ ${DISTRICT_P50_TARGET}×`,
      ],
      rows,
    ),
    '',
    "Where a district page is slower than the demo school's, these are the causes seen so far. An `offset=` without the `after` of a next link walks the keys before it, or after it from the end where fewer (a fifth of the collection, four fifths in), so it costs in proportion to that distance, by design (docs/oneroster.md). A class item carries its enrollment list (some 4 KB for a class of 200 in the district, against a few hundred bytes in the demo school): a page or a read by id asks for the class's fields alone, but DynamoDB Local reads the whole item, and a page of enrollments finds its classes' schools in those items. A class's or a school's students are read from the enrollment lists of its classes, so they cost what the class or school has, and a district class of 200 fills the page of 100 that a demo class fills only in part. " +
      'A page is read from its key by a key condition (`sk > :after`), which DynamoDB Local answers as fast at any depth; it walks a partition from its start to an ExclusiveStartKey (four fifths through 80,400 enrollments, 26 ms against 3.5). ' +
      'The first page of a delta since before the load reads on up to 2,000 records past its page to count the walk (docs/oneroster.md), so it costs some twenty pages; the pages its next link leads to cost one.',
    '',
    `Read units of a page of 100 read a page at a time, at the start, halfway and at the end of a walk in sourcedId order (through the repositories the handlers use, with DynamoDB Local's consumed-capacity report): flat means within ${FLAT_CAPACITY * 100} % of the first page.`,
    '',
    table(
      ['Collection', 'First page', 'Halfway', 'Last page', 'Flat'],
      d.capacity.map((c) => [c.collection, c.first, c.middle, c.last, verdict(flat(c))]),
    ),
    '',
    ...(d.exports ? exportRows(d.exports) : []),
  ].join('\n');
}

/** Section 8's whole exports of the demo school and the district, side by side. */
function exportRows(exports: NonNullable<DistrictResults['exports']>): string[] {
  const row = (tenant: string, e: ExportMeasure) => [
    tenant,
    e.records.toLocaleString('en'),
    `${round(e.seconds, 1)} s`,
    Math.round(e.records / e.seconds).toLocaleString('en'),
    `${round(e.peakRssMiB, 1)} MiB`,
    `${round(e.peakHeapMiB, 1)} MiB`,
    `${round(e.onerosterMiB, 2)} MiB`,
  ];
  const { demo, district } = exports;
  const perRecord = ((district.peakHeapMiB - demo.peakHeapMiB) * 2 ** 20) / (district.records - demo.records);
  return [
    `The whole export of each tenant (\`npm run export\`'s run: every group as NDJSON and CSV, then the OneRoster CSV bulk zip), in a process of its own, its memory sampled every 20 ms. The groups are read a page at a time and the zip's tables are made and compressed as they are read, so what grows with the tenant is only what the tables need of each other: ids and a few fields a person (docs/exports.md), here ${Math.max(0, Math.round(perRecord))} bytes of heap a record more than the demo school's.`,
    '',
    table(
      ['Tenant', 'Records', 'Time', 'Records/s', 'Peak RSS', 'Peak heap', 'OneRoster zip'],
      [row('Demo school', demo), row('District', district)],
    ),
    '',
  ];
}

export function renderReport(r: Results): string {
  const m = r.machine;
  return [
    '# Benchmarks',
    '',
    'Written by `npm run bench` (`test/bench/run.ts`); re-run it whenever a change touches a hot path. It starts',
    'its own in-memory DynamoDB Local, the local API (`npm start`) and a bare node:http server, measures, and',
    'writes this file and `benchmarks.json` beside it. Each comparison is measured side by side in one run,',
    'so the ratios hold on a busy machine even when the absolute figures move.',
    '',
    table(
      ['Machine', ''],
      [
        ['Date', m.date],
        ['CPU', m.cpu],
        ['Cores', m.cores],
        ['Memory', `${m.memoryGiB} GiB`],
        ['Node.js', m.node],
        ['OS', m.os],
        ['Run', `${r.quick ? 'quick (fewer samples; not for the record)' : 'full'}, ${r.minutes} min`],
        [
          'Load average (1 min)',
          `${m.loadAtStart} at the start, ${r.loadAtEnd} at the end, on ${m.cores} cores`,
        ],
      ],
      'all',
    ),
    '',
    '## Summary',
    '',
    summary(r),
    '',
    `*At the limit*: within ${AT_THE_LIMIT * 100} % of the target, where runs on a busy machine can fall either side.`,
    '',
    coldStartSection(r.coldStart),
    overheadSection(r),
    revocationSection(r.revocation),
    rateLimitSection(r.rateLimit),
    readCostSection(r),
    throughputSection(r),
    tokensSection(r),
    fieldSelectionSection(r.fieldSelection),
    auditSection(r.audit, r.overhead.results),
    districtSection(r.district),
    eventsSection(r.events),
  ]
    .join('\n')
    .replace(/\n{3,}/g, '\n\n');
}
