// Composes the export's parts once per cold start: the record repository it reads, the S3 client it
// writes with, and the exporter. The scheduled function, the CLI and the local schedule all use it.
import packageJson from '../../package.json' with { type: 'json' };
import { type ExportConfig, parseExportConfig } from '../config';
import { createDocumentClient } from '../data/document-client';
import { RecordRepository } from '../data/record-repository';
import { UserRepository } from '../data/user-repository';
import { createLogger, type Logger } from '../log';
import { Exporter } from './export-run';
import { EXPORTS_PREFIX } from './manifest';
import { createS3Client, S3Store } from './store';

export interface ExportServices {
  config: ExportConfig;
  records: RecordRepository;
  exporter: Exporter;
  /** The store of one run: `exports/<run id>/` in the tenant's export bucket. */
  bucketStore(runId: string): S3Store;
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
    destroy: () => {
      db.destroy();
      s3.destroy();
    },
  };
}

let current: ExportServices | undefined;

/** The process's export services, built from the environment on first use. */
export function exportServices(): ExportServices {
  current ??= createExportServices(parseExportConfig(process.env));
  return current;
}
