// `npm run verify-export -- <folder | s3://bucket/exports/<run>/>`: re-reads an export and checks every
// file against its manifest. Exits 0 when all match, 1 with the first difference, 2 on bad arguments.
import { existsSync, statSync } from 'node:fs';
import { parseArgs } from 'node:util';
import {
  createS3Client,
  type ExportStore,
  FolderStore,
  parseS3Url,
  S3Store,
} from '../../shared/exports/store';
import { verifyExport } from '../../shared/exports/verify';
import { localS3Endpoint } from './target';

const usage = 'usage: npm run verify-export -- <export folder | s3://bucket/exports/<run id>/>';

function fail(message: string): never {
  console.error(`${message}\n${usage}`);
  process.exit(2);
}

function parseArguments(): string {
  let positionals: string[];
  try {
    ({ positionals } = parseArgs({ options: {}, allowPositionals: true }));
  } catch (error) {
    fail((error as Error).message);
  }
  const [where, ...extra] = positionals;
  if (!where || extra.length > 0) fail('Name one export: a folder or an s3:// prefix.');
  return where;
}

function storeOf(where: string): { store: ExportStore; destroy(): void } {
  if (where.startsWith('s3://')) {
    const parsed = parseS3Url(where);
    if (!parsed?.prefix) fail(`${where} is not an s3://bucket/prefix/ address of one export run.`);
    const s3 = createS3Client({
      region: process.env.AWS_REGION ?? 'eu-west-1',
      endpoint: localS3Endpoint(process.env, parsed.bucket),
    });
    return { store: new S3Store(s3, parsed.bucket, parsed.prefix), destroy: () => s3.destroy() };
  }
  if (!existsSync(where) || !statSync(where).isDirectory()) fail(`${where} is not a folder.`);
  return { store: new FolderStore(where), destroy: () => undefined };
}

async function main() {
  const { store, destroy } = storeOf(parseArguments());
  try {
    const result = await verifyExport(store, (file) => console.error(`checking ${file.name}`));
    if (!result.ok) {
      console.error(`Difference: ${result.difference}`);
      process.exitCode = 1;
      return;
    }
    const { manifest } = result;
    const records = manifest.files
      .filter((f) => f.format === 'ndjson+gzip')
      .reduce((sum, f) => sum + f.records, 0);
    console.log(
      `${store.location} matches its manifest: ${manifest.files.length} files and the OneRoster zip, ${records} records, run ${manifest.run_id} of tenant ${manifest.tenant_id}, finished ${manifest.finished_at}`,
    );
  } finally {
    destroy();
  }
}

main().catch((error: unknown) => {
  console.error(`Verification failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
