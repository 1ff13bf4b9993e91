// `npm run export -- [--out <dir>]`: runs one export of the tenant now, to its export bucket (the local
// S3 of `npm start` by default) or into a new folder under <dir>, with its progress on stderr.
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { runIdAt } from '../../shared/exports/manifest';
import { createExportServices } from '../../shared/exports/services';
import { FolderStore } from '../../shared/exports/store';
import { createLogger } from '../../shared/log';
import { progressBar } from './progress-bar';
import { resolveTarget } from './target';

const usage = 'usage: npm run export -- [--out <dir>]';

function fail(message: string): never {
  console.error(`${message}\n${usage}`);
  process.exit(2);
}

function parseArguments(): { out: string | undefined } {
  try {
    const { values } = parseArgs({ options: { out: { type: 'string' } }, allowPositionals: false });
    if (values.out === '') fail('--out needs a folder.');
    return { out: values.out };
  } catch (error) {
    fail((error as Error).message);
  }
}

async function main() {
  const { out } = parseArguments();
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
