// Composes the export's parts once per cold start: the record repository it reads, the S3 client it
// writes with, and the exporter. The scheduled function, the CLI and the local schedule all use it.
import type { Readable } from 'node:stream';
import { ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import packageJson from '../../package.json' with { type: 'json' };
import { type ExportConfig, parseExportConfig } from '../config';
import { createDocumentClient } from '../data/document-client';
import { RecordRepository } from '../data/record-repository';
import { UserRepository } from '../data/user-repository';
import { createLogger, type Logger } from '../log';
import { Exporter } from './export-run';
import { EXPORTS_PREFIX, isRunId, MANIFEST_NAME, Manifest } from './manifest';
import { createS3Client, S3Store } from './store';

export interface ExportServices {
  config: ExportConfig;
  records: RecordRepository;
  exporter: Exporter;
  /** The store of one run: `exports/<run id>/` in the tenant's export bucket. */
  bucketStore(runId: string): S3Store;
  /** The manifest of the latest complete run before this one in the bucket, if there is one. */
  previousManifest(runId: string): Promise<Manifest | undefined>;
  destroy(): void;
}

export function createExportServices(
  config: ExportConfig,
  logger: Logger = createLogger(config.logLevel),
): ExportServices {
  const db = createDocumentClient({ region: config.region, endpoint: config.dynamodbEndpoint });
  const s3 = createS3Client({ region: config.region, endpoint: config.s3Endpoint });
  const records = new RecordRepository(db, config.tableName);
  const users = new UserRepository(db, config.tableName);
  return {
    config,
    records,
    exporter: new Exporter({
      records,
      tenantId: config.tenantId,
      serviceVersion: packageJson.version,
      logger,
      syncLagMs: config.syncLagMs,
      usernames: () => users.usernames(),
    }),
    bucketStore: (runId) => new S3Store(s3, config.exportBucket, `${EXPORTS_PREFIX}${runId}/`),
    async previousManifest(runId) {
      const earlier = (await runIdsIn(s3, config.exportBucket))
        .filter((id) => id < runId)
        .sort()
        .reverse();
      for (const id of earlier) {
        const body = await new S3Store(s3, config.exportBucket, `${EXPORTS_PREFIX}${id}/`).read(
          MANIFEST_NAME,
        );
        const parsed = body && Manifest.safeParse(JSON.parse(await text(body)));
        if (parsed?.success) return parsed.data;
      }
      return undefined;
    },
    destroy: () => {
      db.destroy();
      s3.destroy();
    },
  };
}

/** The ids of the runs in the bucket (its folders under exports/ named as runIdAt names them). */
async function runIdsIn(s3: S3Client, bucket: string): Promise<string[]> {
  const ids: string[] = [];
  let token: string | undefined;
  do {
    const page = await s3.send(
      new ListObjectsV2Command({
        Bucket: bucket,
        Prefix: EXPORTS_PREFIX,
        Delimiter: '/',
        ContinuationToken: token,
      }),
    );
    for (const { Prefix } of page.CommonPrefixes ?? []) {
      const id = Prefix?.slice(EXPORTS_PREFIX.length, -1);
      if (id && isRunId(id)) ids.push(id);
    }
    token = page.NextContinuationToken;
  } while (token);
  return ids;
}

async function text(body: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

let current: ExportServices | undefined;

/** The process's export services, built from the environment on first use. */
export function exportServices(): ExportServices {
  current ??= createExportServices(parseExportConfig(process.env));
  return current;
}
