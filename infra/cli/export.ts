// `npm run export -- [--out <dir>] [--delta-since <time>]`: runs one export of the tenant now, to its
// export bucket (the local S3 of `npm start` by default) or into a new folder under <dir>, with its
// progress on stderr; with --delta-since, the run also writes the OneRoster delta zip of what changed and
// was deleted after that time.
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { parseInstant } from '../../shared/domain/instants';
import { runIdAt } from '../../shared/exports/manifest';
import { createExportServices } from '../../shared/exports/services';
import { FolderStore } from '../../shared/exports/store';
import { createLogger } from '../../shared/log';
import { progressBar } from './progress-bar';
import { resolveTarget } from './target';

const usage =
  'usage: npm run export -- [--out <dir>] [--delta-since <ISO 8601 time, such as 2026-09-01T08:00:00Z>]';

function fail(message: string): never {
  console.error(`${message}\n${usage}`);
  process.exit(2);
}

function parseArguments(): { out: string | undefined; deltaSince: string | undefined } {
  let values: { out?: string | undefined; 'delta-since'?: string | undefined };
  try {
    ({ values } = parseArgs({
      options: { out: { type: 'string' }, 'delta-since': { type: 'string' } },
      allowPositionals: false,
    }));
  } catch (error) {
    fail((error as Error).message);
  }
  if (values.out === '') fail('--out needs a folder.');
  const since = values['delta-since'];
  const deltaSince = since === undefined ? undefined : parseInstant(since);
  if (since !== undefined && deltaSince === undefined)
    fail(`--delta-since must be an ISO 8601 time with a time zone, not ${JSON.stringify(since)}.`);
  if (deltaSince !== undefined && Date.parse(deltaSince) > Date.now())
    fail(`--delta-since ${deltaSince} is in the future: nothing has changed since.`);
  return { out: values.out, deltaSince };
}

async function main() {
  const { out, deltaSince } = parseArguments();
  const target = resolveTarget(process.env);
  if (!out && !target.exportBucket) {
    fail('No export bucket: set EXPORT_BUCKET (a deployed tenant), run `npm start`, or give --out <dir>.');
  }
  const services = createExportServices(
    {
      tableName: target.tableName,
      tenantId: target.tenantId,
      region: target.region,
      dynamodbEndpoint: target.endpoint,
      logLevel: 'silent',
      syncLagMs: Number(process.env.SYNC_LAG_MS ?? 2000),
      exportBucket: target.exportBucket ?? '',
      s3Endpoint: target.s3Endpoint,
    },
    createLogger('silent'),
  );
  const runId = runIdAt(new Date());
  const store = out ? new FolderStore(join(out, runId)) : services.bucketStore(runId);
  const counts = await services.records.counts();
  // Each record is written twice: to its group's NDJSON, then to its CSV.
  let total = 2 * Object.values(counts).reduce((sum, n) => sum + n, 0);
  let done = 0;
  const started = Date.now();
  const bar = progressBar(
    'exporting',
    '{percentage}% | {value}/{total} records (NDJSON + CSV) | {group} | ETA {eta_formatted}',
  );
  bar.start(total, 0, { group: '' });
  try {
    const result = await services.exporter.run({
      runId,
      store,
      deltaSince,
      onProgress: ({ group, records }) => {
        done += records;
        if (done > total) {
          total = done;
          bar.setTotal(total);
        }
        bar.update(done, { group });
      },
    });
    bar.stop();
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    console.log(`Export complete in ${seconds} s: ${result.location}`);
    const delta = result.status === 'complete' ? result.manifest.oneroster_delta : undefined;
    if (delta) {
      const rows = Object.values(delta.tables).reduce((sum, n) => sum + n, 0);
      console.log(
        `OneRoster delta since ${delta.since}: ${delta.name}, ${rows} rows; the next delta goes on from ${delta.until}`,
      );
    }
    console.log(`Check it with: npm run verify-export -- ${result.location}`);
  } finally {
    bar.stop();
    services.destroy();
  }
}

main().catch((error: unknown) => {
  console.error(`Export failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
