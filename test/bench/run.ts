// `npm run bench`: starts an in-memory DynamoDB Local, the local API and a bare server, runs the six
// benchmarks and writes docs/benchmarks.md and docs/benchmarks.json. `--quick` runs fewer samples
// and no 100,000-student table, and writes to .reports/ instead. `--only cold-start` runs section 1
// alone, `--only fields` section 6, `--only audit` section 7, `--only overhead` section 2 (without the
// revocation check), `--only revocation` the revocation check of section 2, `--only ratelimit` its
// rate-limit admission, `--only throughput`
// section 4, `--only readcost` section 3, `--only district` section 8 and `--only events` section 9, and prints it (the last three as JSON), writing nothing; with `--merge` as well, its figures replace that section's
// in the last run's benchmarks.json, and benchmarks.md is written again from it. The whole run stops
// itself after a fixed time, whatever happens. Section 8 seeds a district of 10,000 students (2,000 with
// `--quick`); `--district <students>` sets another size, such as the 100,000 of a large district.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { type LocalRunFile, localRunFile } from '../../infra/cli/target';
import { startDynamoDbLocal } from '../../infra/local/dynamodb-local';
import { DEMO_TENANT } from '../../infra/local/local-run';
import { demoTenant } from '../../infra/local/seed/demo-tenant';
import { createDocumentClient } from '../../shared/data/document-client';
import { RecordRepository } from '../../shared/data/record-repository';
import type { Student } from '../../shared/schemas/records';
import { measureAuditCost } from './audit-cost';
import { type ColdStarts, measureColdStarts } from './cold-start';
import { type DistrictResults, measureDistrictRoutes, measurePageCapacity } from './district';
import { measureEvents } from './events';
import { measureExport } from './export-child';
import { measureFieldSelection } from './field-selection';
import { httpClient } from './http-client';
import { currentLoad, describeMachine } from './machine';
import { measureOverhead } from './overhead';
import { measureRateLimitCost } from './rate-limit-cost';
import { itemSize, measureReadCost } from './read-cost';
import {
  auditSection,
  coldStartSection,
  districtSection,
  eventsSection,
  fieldSelectionSection,
  type Results,
  rateLimitSection,
  renderReport,
  revocationSection,
} from './report';
import { measureRevocationCost } from './revocation-cost';
import { seedStudents } from './seed-students';
import { startService } from './services';
import { median, round } from './stats';
import { measureThroughput } from './throughput';
import { measureTokens } from './tokens';
import { DEMO_SECRET, workload } from './workload';

const quick = process.argv.includes('--quick');
const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : undefined;
const ONLY = [
  'cold-start',
  'fields',
  'audit',
  'overhead',
  'revocation',
  'ratelimit',
  'throughput',
  'readcost',
  'district',
  'events',
] as const;
const merge = process.argv.includes('--merge');
// Section 1 alone imports some 120 bundles ten times each, paired: on a loaded machine, a quarter of an
// hour; section 8 seeds its district through the import, some minutes more.
const MAX_MINUTES = 60;
const districtArgument = process.argv.includes('--district')
  ? Number(process.argv[process.argv.indexOf('--district') + 1])
  : undefined;
const settings = quick
  ? {
      coldRuns: 5,
      overhead: { warmup: 20, samples: 60, repeats: 1 },
      students: [1_000, 10_000],
      load: { connections: 8, seconds: 3, repeats: 1 },
      tokens: { endpoint: 5, secret: 5, crypto: 200 },
      fieldSamples: 30,
      auditSamples: 300,
      district: { students: districtArgument ?? 2_000, samples: 20 },
      events: { latencySamples: 50, replayEvents: 300 },
    }
  : {
      coldRuns: 10,
      overhead: { warmup: 100, samples: 300, repeats: 3 },
      students: [1_000, 10_000, 100_000],
      load: { connections: 8, seconds: 5, repeats: 6 },
      tokens: { endpoint: 30, secret: 30, crypto: 2_000 },
      fieldSamples: 200,
      auditSamples: 2_000,
      district: { students: districtArgument ?? 10_000, samples: 50 },
      events: { latencySamples: 300, replayEvents: 2_000 },
    };

const root = fileURLToPath(new URL('../../', import.meta.url));
const outDir = quick ? `${root}.reports` : `${root}docs`;
const region = 'eu-west-1';

const log = (message: string) => console.log(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}`);

/** Writes the report, formatted as the repository formats every file, so it passes `biome check`. */
function writeReport(results: Results) {
  mkdirSync(outDir, { recursive: true });
  writeFileSync(`${outDir}/benchmarks.json`, `${JSON.stringify(results, null, 2)}\n`);
  writeFileSync(`${outDir}/benchmarks.md`, renderReport(results));
  spawnSync(
    `${root}node_modules/.bin/biome`,
    ['format', '--write', `${outDir}/benchmarks.md`, `${outDir}/benchmarks.json`],
    { stdio: 'ignore' },
  );
}

/** With `--merge`: one section's new figures in place of the last run's, the rest left as they were. */
function mergeReport(section: Partial<Results>) {
  if (!merge) return;
  const last = JSON.parse(readFileSync(`${outDir}/benchmarks.json`, 'utf8')) as Results;
  writeReport({ ...last, ...section });
  log(`merged into ${outDir}/benchmarks.md and benchmarks.json`);
}

/**
 * `npm start` on a DynamoDB Local, with a data folder of its own (so a running `npm start` is left
 * alone), no export schedule, and the benchmark's demo client secret; `env` adds to that.
 */
function startLocalApi(
  endpoint: string,
  dataDir: string,
  env: Record<string, string> = {},
  timeoutMs?: number,
) {
  return startService(
    'infra/local/start.ts',
    {
      HOST: '127.0.0.1',
      PORT: '0',
      DATA_DIR: dataDir,
      DYNAMODB_ENDPOINT: endpoint,
      DEMO_CLIENT_SECRET: DEMO_SECRET,
      LOG_LEVEL: 'info',
      EXPORT_SCHEDULE: 'off',
      ...env,
    },
    timeoutMs,
  );
}

/** What the export function of a local run's tenant is configured with, from the run's file in its data folder. */
function exportTarget(dataDir: string): Record<string, string> {
  const run = JSON.parse(readFileSync(localRunFile(dataDir), 'utf8')) as LocalRunFile;
  return {
    TABLE_NAME: run.tableName,
    TENANT_ID: run.tenantId,
    DYNAMODB_ENDPOINT: run.dynamodbEndpoint,
    EXPORT_BUCKET: run.exportBucket,
    S3_ENDPOINT: run.s3Endpoint,
  };
}

/**
 * Section 8: `npm start` seeds a generated district on a DynamoDB Local of its own, then every route is
 * timed against it and the demo school (`demo`, a local run and its data folder), the read capacity of
 * pages is measured, and each tenant is exported whole in a process of its own.
 */
async function measureDistrict(demo: { url: string; dataDir: string }): Promise<DistrictResults> {
  const { students, samples } = settings.district;
  if (!(Number.isInteger(students) && students > 0)) throw new Error('--district takes a number of students');
  const database = await startDynamoDbLocal();
  const db = createDocumentClient({ region, endpoint: database.endpoint });
  const dataDir = mkdtempSync(`${tmpdir()}/school-bench-district-`);
  const seeding = performance.now();
  const district = await startLocalApi(
    database.endpoint,
    dataDir,
    { DEMO_SIZE: String(students) },
    MAX_MINUTES * 60_000,
  ).catch(async (error: unknown) => {
    db.destroy();
    await database.stop();
    throw error;
  });
  const seedSeconds = round((performance.now() - seeding) / 1000, 1);
  log(`  the district answers after ${seedSeconds} s; timing ${samples} samples a route`);
  try {
    const tableName = `school-${DEMO_TENANT.id}`;
    return {
      students,
      counts: await new RecordRepository(db, tableName).counts(),
      seedSeconds,
      samples,
      routes: await measureDistrictRoutes(demo.url, district.url, samples),
      capacity: await measurePageCapacity(db, tableName),
      exports: {
        demo: await measureExport(exportTarget(demo.dataDir)),
        district: await measureExport(exportTarget(dataDir)),
      },
    };
  } finally {
    await district.stop();
    db.destroy();
    await database.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Section 3: tables of copies of the median demo student, seeded on this DynamoDB Local, and what pages of them cost. */
async function measureSectionThree(db: ReturnType<typeof createDocumentClient>, endpoint: string) {
  log('section 3, read cost: seeding student tables');
  const template = medianStudent();
  const tables = [];
  for (const students of settings.students) {
    const seeded = await seedStudents(db, `bench-students-${students}`, students, template);
    log(`  ${students} students in ${seeded.seconds} s`);
    tables.push(seeded);
  }
  const readCost = await measureReadCost(endpoint, tables, template);
  return { ...readCost, tables: tables.map(({ sortedIds: _ids, ...rest }) => rest) };
}

/** The demo student of median size: the template every generated student copies. */
function medianStudent(): Student {
  const students = demoTenant()
    .filter((r) => r.group === 'students')
    .map((r) => r.record as Student);
  const sizes = students.map((s) => itemSize(s));
  const middle = median(sizes);
  return students[sizes.indexOf(middle)] as Student;
}

async function main() {
  const started = performance.now();
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
  const machine = describeMachine();
  log(`${machine.cpu}, ${machine.cores} cores, Node ${machine.node}; ${quick ? 'quick' : 'full'} run`);

  if (only !== undefined && !(ONLY as readonly string[]).includes(only))
    throw new Error(`--only takes ${ONLY.join(', ')}, not ${only}`);
  const runs = (section: (typeof ONLY)[number]) => only === undefined || only === section;
  let coldStart: ColdStarts | undefined;
  if (runs('cold-start')) {
    log('section 1, cold start: bundling every handler and importing each in fresh processes');
    const bundleDir = mkdtempSync(`${tmpdir()}/school-bench-`);
    coldStart = await measureColdStarts(bundleDir, settings.coldRuns, (message) => log(`  ${message}`));
    rmSync(bundleDir, { recursive: true, force: true });
  }
  if (only === 'cold-start' && coldStart) {
    console.log(coldStartSection(coldStart));
    console.log(JSON.stringify({ coldStart }, null, 2));
    mergeReport({ coldStart });
    return;
  }
  // In process and before the servers start, so nothing else of the benchmark competes with it.
  let audit: Results['audit'];
  if (runs('audit')) {
    log('section 7, audit trail');
    audit = { samples: settings.auditSamples, results: await measureAuditCost(settings.auditSamples) };
  }
  if (only === 'audit') {
    console.log(auditSection(audit));
    console.log(JSON.stringify({ audit }, null, 2));
    mergeReport({ audit });
    return;
  }

  if (only === 'readcost') {
    const database = await startDynamoDbLocal();
    const db = createDocumentClient({ region, endpoint: database.endpoint });
    try {
      const readCost = await measureSectionThree(db, database.endpoint);
      console.log(JSON.stringify({ readCost }, null, 2));
      mergeReport({ readCost });
    } finally {
      db.destroy();
      await database.stop();
    }
    return;
  }

  log('starting DynamoDB Local (in memory), the local API and the bare server');
  const database = await startDynamoDbLocal();
  const db = createDocumentClient({ region, endpoint: database.endpoint });
  const tableName = `school-${DEMO_TENANT.id}`;
  // A folder of its own for the local run's lock, run file and S3, so a running `npm start` is left alone.
  const dataDir = mkdtempSync(`${tmpdir()}/school-bench-data-`);
  const api = await startLocalApi(database.endpoint, dataDir);
  const bare = await startService('test/bench/bare-server.ts', {
    DYNAMODB_ENDPOINT: database.endpoint,
    TABLE_NAME: tableName,
  });
  const stackClient = httpClient(api.url);
  const bareClient = httpClient(bare.url);
  try {
    if (only === 'fields') {
      const work = await workload(db, tableName, stackClient);
      log('section 6, field selection');
      const results = await measureFieldSelection(work, stackClient, settings.fieldSamples, db, tableName);
      console.log(fieldSelectionSection({ samples: settings.fieldSamples, results }));
      console.log(JSON.stringify({ fieldSelection: { samples: settings.fieldSamples, results } }, null, 2));
      mergeReport({ fieldSelection: { samples: settings.fieldSamples, results } });
      return;
    }
    const measureRevocation = async (work: Awaited<ReturnType<typeof workload>>) => ({
      ...settings.overhead,
      result: await measureRevocationCost(work, stackClient, db, tableName, api.url, settings.overhead),
    });
    if (only === 'revocation') {
      log('section 2, the revocation check');
      const revocation = await measureRevocation(await workload(db, tableName, stackClient));
      console.log(revocationSection(revocation));
      console.log(JSON.stringify({ revocation }, null, 2));
      mergeReport({ revocation });
      return;
    }
    if (only === 'ratelimit') {
      log('section 2, the rate limit');
      const rateLimit = { result: await measureRateLimitCost(db, tableName) };
      console.log(rateLimitSection(rateLimit));
      console.log(JSON.stringify({ rateLimit }, null, 2));
      mergeReport({ rateLimit });
      return;
    }
    if (only === 'overhead') {
      log('section 2, per-request overhead');
      const work = await workload(db, tableName, stackClient);
      const results = await measureOverhead(work, stackClient, bareClient, settings.overhead);
      const overhead = { ...settings.overhead, results };
      console.log(JSON.stringify({ overhead }, null, 2));
      mergeReport({ overhead });
      return;
    }
    if (only === 'district') {
      log(`section 8, district scale (${settings.district.students} students)`);
      const district = await measureDistrict({ url: api.url, dataDir });
      console.log(districtSection(district));
      console.log(JSON.stringify({ district }, null, 2));
      mergeReport({ district });
      return;
    }
    if (only === 'events') {
      log('section 9, change events');
      const work = await workload(db, tableName, stackClient);
      const events = await measureEvents(api.url, work.token, settings.events);
      console.log(eventsSection(events));
      console.log(JSON.stringify({ events }, null, 2));
      mergeReport({ events });
      return;
    }
    if (only === 'throughput') {
      log(`section 4, throughput (${settings.load.seconds} s a run)`);
      const work = await workload(db, tableName, stackClient);
      const results = await measureThroughput(work, { stack: api.url, bare: bare.url }, settings.load);
      const throughput = { ...settings.load, results };
      console.log(JSON.stringify({ throughput }, null, 2));
      mergeReport({ throughput });
      return;
    }
    log('section 5, tokens');
    const tokens = await measureTokens(stackClient, settings.tokens);
    const work = await workload(db, tableName, stackClient);

    log('section 2, per-request overhead');
    const overhead = await measureOverhead(work, stackClient, bareClient, settings.overhead);
    log('section 2, the revocation check');
    const revocation = await measureRevocation(work);
    log('section 2, the rate limit');
    const rateLimit = { result: await measureRateLimitCost(db, tableName) };

    log('section 6, field selection');
    const fieldSelection = {
      samples: settings.fieldSamples,
      results: await measureFieldSelection(work, stackClient, settings.fieldSamples, db, tableName),
    };

    log(`section 4, throughput (${settings.load.seconds} s a run)`);
    const throughput = await measureThroughput(work, { stack: api.url, bare: bare.url }, settings.load);
    log('section 9, change events');
    const events = await measureEvents(api.url, work.token, settings.events);
    stackClient.close();
    bareClient.close();
    await api.stop();
    await bare.stop();

    const readCost = await measureSectionThree(db, database.endpoint);

    log(`section 8, district scale (${settings.district.students} students)`);
    const demoForDistrict = await startLocalApi(database.endpoint, dataDir);
    const district = await measureDistrict({ url: demoForDistrict.url, dataDir }).finally(() =>
      demoForDistrict.stop(),
    );

    const results: Results = {
      machine,
      quick,
      minutes: round((performance.now() - started) / 60_000, 1),
      loadAtEnd: currentLoad(),
      coldStart: coldStart as NonNullable<typeof coldStart>,
      overhead: { ...settings.overhead, results: overhead },
      readCost,
      throughput: { ...settings.load, results: throughput },
      tokens,
      fieldSelection,
      audit,
      revocation,
      rateLimit,
      district,
      events,
    };
    writeReport(results);
    log(`wrote ${outDir}/benchmarks.md and benchmarks.json in ${results.minutes} min`);
  } finally {
    stackClient.close();
    bareClient.close();
    await api.stop();
    await bare.stop();
    db.destroy();
    await database.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

setTimeout(() => {
  console.error(`The benchmark ran past ${MAX_MINUTES} minutes and stops.`);
  process.exit(1);
}, MAX_MINUTES * 60_000).unref();

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error('The benchmark failed:', error);
    process.exit(1);
  },
);
