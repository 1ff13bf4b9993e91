// Re-reads an export run and checks it against its manifest: every file present, no file unlisted, and
// each file's size, SHA-256 and record count as the manifest says. Stops at the first difference.
import { createHash } from 'node:crypto';
import { type Readable, Transform, type TransformCallback } from 'node:stream';
import { parse } from 'csv-parse';
import { parse as parseSync } from 'csv-parse/sync';
import { unzipSync } from 'fflate';
import {
  MANIFEST_NAME,
  Manifest,
  type ManifestFile,
  type ManifestOneRosterDelta,
  type ManifestOneRosterZip,
} from './manifest';
import { ndjsonLines } from './ndjson';
import type { ExportStore } from './store';

export type Verification =
  | { ok: true; manifest: Manifest }
  | { ok: false; difference: string; manifest?: Manifest | undefined };

class Meter extends Transform {
  readonly hash = createHash('sha256');
  bytes = 0;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.hash.update(chunk);
    this.bytes += chunk.length;
    done(null, chunk);
  }
}

async function readText(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

/** Records in a file: NDJSON lines that are each a JSON object, or CSV rows below the header. */
async function countRecords(file: ManifestFile, body: Readable, meter: Meter): Promise<number | string> {
  let records = 0;
  if (file.format === 'ndjson+gzip') {
    for await (const line of ndjsonLines(body, meter)) {
      records += 1;
      try {
        const value: unknown = JSON.parse(line);
        if (!value || typeof value !== 'object' || Array.isArray(value)) throw new Error('not an object');
      } catch {
        return `${file.name}: line ${records} is not a JSON object`;
      }
    }
    return records;
  }
  const rows = body.pipe(meter).pipe(parse({ columns: true, bom: true }));
  body.once('error', (error) => rows.destroy(error));
  try {
    for await (const _row of rows) records += 1;
  } catch (error) {
    return `${file.name}: not readable as CSV (${(error as Error).message})`;
  }
  return records;
}

export async function verifyExport(
  store: ExportStore,
  onFile?: (file: ManifestFile) => void,
): Promise<Verification> {
  const manifestBody = await store.read(MANIFEST_NAME);
  if (!manifestBody) {
    return {
      ok: false,
      difference: `${store.location}: no ${MANIFEST_NAME}; the export is incomplete (a run writes its manifest last)`,
    };
  }
  let manifest: Manifest;
  try {
    const parsed = Manifest.safeParse(JSON.parse(await readText(manifestBody)));
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return { ok: false, difference: `${MANIFEST_NAME}: ${issue?.path.join('.')}: ${issue?.message}` };
    }
    manifest = parsed.data;
  } catch {
    return { ok: false, difference: `${MANIFEST_NAME}: not valid JSON` };
  }
  const zips = [manifest.oneroster, ...(manifest.oneroster_delta ? [manifest.oneroster_delta] : [])];
  const listed = new Set([...manifest.files.map((f) => f.name), ...zips.map((z) => z.name)]);
  const extra = (await store.list()).filter((name) => name !== MANIFEST_NAME && !listed.has(name)).sort();
  if (extra[0]) return { ok: false, manifest, difference: `${extra[0]}: not listed in the manifest` };

  for (const file of manifest.files) {
    onFile?.(file);
    const total = manifest.groups[file.group]?.total_items;
    if (total !== file.records) {
      return {
        ok: false,
        manifest,
        difference: `${file.name}: the manifest lists ${file.records} records but total_items of ${file.group} is ${total}`,
      };
    }
    const body = await store.read(file.name);
    if (!body) return { ok: false, manifest, difference: `${file.name}: listed in the manifest but missing` };
    const meter = new Meter();
    let counted: number | string;
    try {
      counted = await countRecords(file, body, meter);
    } catch (error) {
      counted = `${file.name}: not readable (${(error as Error).message})`;
    }
    if (typeof counted === 'string') return { ok: false, manifest, difference: counted };
    const sha256 = meter.hash.digest('hex');
    const differences = [
      meter.bytes !== file.bytes && `${meter.bytes} bytes, the manifest says ${file.bytes}`,
      sha256 !== file.sha256 && `SHA-256 ${sha256}, the manifest says ${file.sha256}`,
      counted !== file.records && `${counted} records, the manifest says ${file.records}`,
    ].filter(Boolean);
    if (differences[0]) return { ok: false, manifest, difference: `${file.name}: ${differences[0]}` };
  }
  for (const zip of zips) {
    const zipDifference = await verifyOneRosterZip(store, zip);
    if (zipDifference) return { ok: false, manifest, difference: zipDifference };
  }
  return { ok: true, manifest };
}

/** A OneRoster zip (bulk or delta): its size and SHA-256, and each table's rows as the manifest counts them. */
async function verifyOneRosterZip(
  store: ExportStore,
  entry: ManifestOneRosterZip | ManifestOneRosterDelta,
): Promise<string | undefined> {
  const body = await store.read(entry.name);
  if (!body) return `${entry.name}: listed in the manifest but missing`;
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(Buffer.from(chunk as Buffer));
  const bytes = Buffer.concat(chunks);
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  if (bytes.length !== entry.bytes)
    return `${entry.name}: ${bytes.length} bytes, the manifest says ${entry.bytes}`;
  if (sha256 !== entry.sha256) return `${entry.name}: SHA-256 ${sha256}, the manifest says ${entry.sha256}`;
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(bytes);
  } catch (error) {
    return `${entry.name}: not readable as a zip (${(error as Error).message})`;
  }
  for (const [table, count] of Object.entries(entry.tables)) {
    const file = files[`${table}.csv`];
    // A table without rows is `absent` in manifest.csv and left out of the zip.
    if (!file && count === 0) continue;
    if (!file) return `${entry.name}: ${table}.csv is missing`;
    let rows: unknown[];
    try {
      rows = parseSync(Buffer.from(file), { columns: true, bom: true });
    } catch (error) {
      return `${entry.name}: ${table}.csv is not readable as CSV (${(error as Error).message})`;
    }
    if (rows.length !== count)
      return `${entry.name}: ${table}.csv has ${rows.length} rows, the manifest says ${count}`;
  }
  return undefined;
}
