// What `npm run verify-export` does (infra/cli/verify-export.ts starts it): re-reads an export and checks
// every file against its manifest. It takes its arguments, environment and output from its caller, so
// the tests run it in their own process, and answers the exit code: 0 when all match, 1 with the first
// difference, 2 on bad arguments.
import { existsSync, statSync } from 'node:fs';
import { parseArgs } from 'node:util';
import {
  createS3Client,
  type ExportStore,
  FolderStore,
  parseS3Url,
  S3Store,
} from '../../../shared/exports/store';
import { verifyExport } from '../../../shared/exports/verify';
import { localS3Endpoint } from '../target';

/** What the command line gives a run, and where it prints: a line at a time. */
export interface VerifyExportIo {
  argv: string[];
  env: Record<string, string | undefined>;
  out(line: string): void;
  err(line: string): void;
}

const usage = 'usage: npm run verify-export -- <export folder | s3://bucket/exports/<run id>/>';

/** A bad argument: said with the usage line, exit 2. */
class UsageError extends Error {}

function parseArguments(argv: string[]): string {
  let positionals: string[];
  try {
    ({ positionals } = parseArgs({ args: argv, options: {}, allowPositionals: true }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const [where, ...extra] = positionals;
  if (!where || extra.length > 0) throw new UsageError('Name one export: a folder or an s3:// prefix.');
  return where;
}

function storeOf(where: string, env: VerifyExportIo['env']): { store: ExportStore; destroy(): void } {
  if (where.startsWith('s3://')) {
    const parsed = parseS3Url(where);
    if (!parsed?.prefix)
      throw new UsageError(`${where} is not an s3://bucket/prefix/ address of one export run.`);
    const s3 = createS3Client({
      region: env.AWS_REGION ?? 'eu-west-1',
      endpoint: localS3Endpoint(env, parsed.bucket),
    });
    return { store: new S3Store(s3, parsed.bucket, parsed.prefix), destroy: () => s3.destroy() };
  }
  if (!existsSync(where) || !statSync(where).isDirectory()) throw new UsageError(`${where} is not a folder.`);
  return { store: new FolderStore(where), destroy: () => undefined };
}

async function verify(store: ExportStore, { out, err }: VerifyExportIo): Promise<number> {
  const result = await verifyExport(store, (file) => err(`checking ${file.name}`));
  if (!result.ok) {
    err(`Difference: ${result.difference}`);
    return 1;
  }
  const { manifest } = result;
  const records = manifest.files
    .filter((f) => f.format === 'ndjson+gzip')
    .reduce((sum, f) => sum + f.records, 0);
  out(
    `${store.location} matches its manifest: ${manifest.files.length} files and the OneRoster zip, ${records} records, run ${manifest.run_id} of tenant ${manifest.tenant_id}, finished ${manifest.finished_at}`,
  );
  return 0;
}

/** Checks one export; answers the exit code. */
export async function runVerifyExport(io: VerifyExportIo): Promise<number> {
  let opened: ReturnType<typeof storeOf> | undefined;
  try {
    opened = storeOf(parseArguments(io.argv), io.env);
    return await verify(opened.store, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`${error.message}\n${usage}`);
      return 2;
    }
    io.err(`Verification failed: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  } finally {
    opened?.destroy();
  }
}
