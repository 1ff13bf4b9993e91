// One export run: every group read in id order, streamed as gzipped NDJSON to the run's store, read back
// and checked, turned into CSV, and the manifest written last. Memory holds a page of records and the
// upload's parts, never a whole group. See docs/exports.md for what the snapshot guarantees.
import { createHash } from 'node:crypto';
import { PassThrough, Readable, Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import type { Deletion } from '../data/pages';
import { recordId } from '../data/record-items';
import type { RecordRepository } from '../data/record-repository';
import { type RecordGroup, recordGroups } from '../domain/groups';
import type { Logger } from '../log';
import { CsvLayout } from './csv';
import {
  EXPORT_SCHEMA_VERSION,
  fileNames,
  MANIFEST_NAME,
  type Manifest,
  type ManifestFile,
  type ManifestGroup,
  type ManifestOneRosterDelta,
} from './manifest';
import { ndjsonLines } from './ndjson';
import {
  bulkRows,
  indexRoster,
  ONEROSTER_ZIP_NAME,
  type OneRosterTable,
  oneRosterZip,
  rosterTables,
} from './oneroster-csv';
import {
  type DeltaDeletions,
  deltaDeletionGroups,
  deltaRows,
  ONEROSTER_DELTA_ZIP_NAME,
} from './oneroster-delta';
import { type DatedRow, type Rows, storeSource } from './roster-source';
import type { ExportStore } from './store';

/** Records per Query page: a page of a few hundred records of a few KB each is all a group keeps in memory. */
const PAGE_SIZE = 250;
/** The manifest.csv's source.systemName of the OneRoster zip. */
const ONEROSTER_SYSTEM_NAME = 'school-api';
/** Reads of one group before the run gives up on a group that keeps changing. */
const MAX_ATTEMPTS = 3;

export class ExportError extends Error {
  override name = 'ExportError';
}

export interface ExportProgress {
  group: RecordGroup;
  phase: 'ndjson' | 'csv';
  /** Records written since the last report. */
  records: number;
  attempt: number;
}

export interface ExportOptions {
  runId: string;
  store: ExportStore;
  /** Epoch milliseconds: past it the run stops between pages, without a manifest. */
  deadline?: number | undefined;
  /** Awaited after every page written. */
  onProgress?: ((progress: ExportProgress) => void | Promise<void>) | undefined;
  /**
   * An instant: the run also writes the OneRoster delta zip of what changed and was deleted after it
   * (oneroster-delta.ts).
   */
  deltaSince?: string | undefined;
}

export type ExportResult =
  | { status: 'complete'; location: string; manifest: Manifest }
  | { status: 'already-complete'; location: string };

export interface ExporterDependencies {
  records: RecordRepository;
  tenantId: string;
  serviceVersion: string;
  logger: Logger;
  /** How long a write's timestamp may precede its commit (the service's SYNC_LAG_MS). */
  syncLagMs: number;
  /** Each person's sign-in username by entity_id, for the OneRoster users' `username`. */
  usernames: () => Promise<ReadonlyMap<string, string>>;
}

interface Digested {
  bytes: number;
  sha256: string;
}

/** Passes bytes through, counting them and hashing them. */
class Digest extends Transform {
  private readonly hash = createHash('sha256');
  private bytes = 0;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.hash.update(chunk);
    this.bytes += chunk.length;
    done(null, chunk);
  }

  result(): Digested {
    return { bytes: this.bytes, sha256: this.hash.digest('hex') };
  }
}

export class Exporter {
  constructor(private readonly deps: ExporterDependencies) {}

  async run(options: ExportOptions): Promise<ExportResult> {
    const { store, runId } = options;
    const { logger } = this.deps;
    // A retried or repeated invocation for a run that completed changes nothing.
    if (await store.exists(MANIFEST_NAME)) {
      logger.info('export already complete', { run_id: runId });
      return { status: 'already-complete', location: store.location };
    }
    const startedAt = new Date().toISOString();
    logger.info('export started', { run_id: runId });
    const groups: Partial<Record<RecordGroup, ManifestGroup>> = {};
    const files: ManifestFile[] = [];
    for (const group of recordGroups) {
      const exported = await this.exportGroup(group, options);
      groups[group] = exported.group;
      files.push(...exported.files);
      logger.info('export group written', {
        run_id: runId,
        group,
        records: exported.group.total_items,
        attempts: exported.group.attempts,
      });
    }
    this.checkDeadline(options);
    const source = { systemName: ONEROSTER_SYSTEM_NAME, systemCode: this.deps.tenantId };
    const usernames = await this.deps.usernames();
    // What the zips' tables need of each other, read once for both; then each table as it is written.
    const read = storeSource(store);
    const tables = rosterTables(await indexRoster(read, usernames, options.deltaSince), read);
    const oneroster = oneRosterZip(bulkRows(tables), source, 'bulk');
    const zip = await writeFile(store, ONEROSTER_ZIP_NAME, 'application/zip', oneroster.chunks, false);
    logger.info('export OneRoster zip written', { run_id: runId, bytes: zip.bytes });
    this.checkDeadline(options);
    const delta =
      options.deltaSince === undefined
        ? undefined
        : await this.writeDelta(store, source, tables, options.deltaSince, startedAt);
    if (delta) logger.info('export OneRoster delta zip written', { run_id: runId, bytes: delta.bytes });
    this.checkDeadline(options);
    const manifest: Manifest = {
      schema_version: EXPORT_SCHEMA_VERSION,
      tenant_id: this.deps.tenantId,
      run_id: runId,
      service_version: this.deps.serviceVersion,
      started_at: startedAt,
      finished_at: new Date().toISOString(),
      groups: groups as Record<RecordGroup, ManifestGroup>,
      files,
      oneroster: {
        name: ONEROSTER_ZIP_NAME,
        format: 'oneroster-csv+zip',
        tables: oneroster.tables,
        ...zip,
      },
      ...(delta ? { oneroster_delta: delta } : {}),
    };
    await writeFile(
      store,
      MANIFEST_NAME,
      'application/json',
      [`${JSON.stringify(manifest, null, 2)}\n`],
      false,
    );
    logger.info('export complete', { run_id: runId, files: files.length });
    return { status: 'complete', location: store.location, manifest };
  }

  /**
   * The delta zip of what changed and was deleted after `since`: the run's records read again, and every
   * deletion since then. The next delta goes on from `until`, the sync lag before the run began, so a
   * write stamped before it and committed while the run read its group is in one of the two.
   */
  private async writeDelta(
    store: ExportStore,
    source: { systemName: string; systemCode: string },
    tables: Record<OneRosterTable, Rows<DatedRow>>,
    since: string,
    startedAt: string,
  ): Promise<ManifestOneRosterDelta> {
    const rows = await deltaRows(tables, since, this.deletionsSince(since));
    const made = oneRosterZip(rows, source, 'delta');
    const written = await writeFile(store, ONEROSTER_DELTA_ZIP_NAME, 'application/zip', made.chunks, false);
    const until = new Date(Date.parse(startedAt) - this.deps.syncLagMs).toISOString();
    return {
      name: ONEROSTER_DELTA_ZIP_NAME,
      format: 'oneroster-csv+zip',
      since,
      until,
      tables: made.tables,
      ...written,
    };
  }

  /**
   * Every deletion after `since` of the groups a delta tells of: each feed read a page at a time, as the
   * delta reads it.
   */
  private deletionsSince(since: string): DeltaDeletions {
    const window = { since, until: new Date().toISOString(), itemsPerPage: PAGE_SIZE };
    const feeds: Partial<Record<RecordGroup, AsyncIterable<Deletion>>> = {};
    for (const group of deltaDeletionGroups) feeds[group] = this.deps.records.deletionsWithin(group, window);
    return feeds as DeltaDeletions;
  }

  private checkDeadline(options: ExportOptions) {
    if (options.deadline !== undefined && Date.now() > options.deadline)
      throw new ExportError('The export ran out of time before it was complete; it wrote no manifest.');
  }

  /**
   * Reads the group until one read saw no record created or deleted: its counter is the same before and
   * after, no deletion was stamped since it began, and it wrote exactly that many records.
   */
  private async exportGroup(group: RecordGroup, options: ExportOptions) {
    const { records, syncLagMs, logger } = this.deps;
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      this.checkDeadline(options);
      const before = await records.count(group);
      const readStarted = new Date();
      const layout = new CsvLayout(group);
      const read = { records: 0 };
      const ndjson = await writeFile(
        options.store,
        fileNames.ndjson(group),
        'application/gzip',
        this.ndjsonPages(group, layout, read, attempt, options),
        true,
      );
      const readFinished = new Date();
      const after = await records.count(group);
      const deleted = await records.deletionsPage(group, {
        since: new Date(readStarted.getTime() - syncLagMs).toISOString(),
        until: '9999-12-31T23:59:59.999Z',
        itemsPerPage: 1,
      });
      if (read.records === before && after === before && deleted.items.length === 0) {
        const csv = await this.writeCsv(
          group,
          layout,
          { ...ndjson, records: read.records },
          attempt,
          options,
        );
        return {
          group: {
            total_items: before,
            read_started_at: readStarted.toISOString(),
            read_finished_at: readFinished.toISOString(),
            attempts: attempt,
          },
          files: [
            { name: fileNames.ndjson(group), group, format: 'ndjson+gzip', records: read.records, ...ndjson },
            { name: fileNames.csv(group), group, format: 'csv', records: read.records, ...csv },
          ] satisfies ManifestFile[],
        };
      }
      logger.info('export group changed while read; reading it again', { group, attempt });
      // Past the lag, a deletion seen now is older than the next read's window.
      await new Promise((resolve) => setTimeout(resolve, syncLagMs));
    }
    throw new ExportError(
      `Records of ${group} were created or deleted during each of ${MAX_ATTEMPTS} reads; the export wrote no manifest.`,
    );
  }

  private async *ndjsonPages(
    group: RecordGroup,
    layout: CsvLayout,
    read: { records: number },
    attempt: number,
    options: ExportOptions,
  ): AsyncGenerator<string> {
    let after: string | undefined;
    do {
      this.checkDeadline(options);
      const page = await this.deps.records.listPage(group, { itemsPerPage: PAGE_SIZE, after });
      let text = '';
      for (const record of page.items) {
        layout.observe(record as unknown as Record<string, unknown>);
        text += `${JSON.stringify(record)}\n`;
      }
      read.records += page.items.length;
      if (text) yield text;
      await options.onProgress?.({ group, phase: 'ndjson', records: page.items.length, attempt });
      const last = page.items.at(-1);
      after = page.hasMore && last ? recordId(group, last) : undefined;
    } while (after);
  }

  /** Builds the CSV from the NDJSON as stored, checking on the way that it is what was written. */
  private async writeCsv(
    group: RecordGroup,
    layout: CsvLayout,
    written: Digested & { records: number },
    attempt: number,
    options: ExportOptions,
  ): Promise<Digested> {
    const name = fileNames.ndjson(group);
    const stored = await options.store.read(name);
    if (!stored) throw new ExportError(`${name} was not found after it was written.`);
    const check = new Digest();
    const lines = { count: 0 };
    const onProgress = options.onProgress;
    async function* rows(): AsyncGenerator<string> {
      yield layout.header();
      let batch = '';
      let inBatch = 0;
      for await (const line of ndjsonLines(stored as Readable, check)) {
        batch += layout.row(JSON.parse(line) as Record<string, unknown>);
        lines.count += 1;
        if (++inBatch === PAGE_SIZE) {
          yield batch;
          await onProgress?.({ group, phase: 'csv', records: inBatch, attempt });
          batch = '';
          inBatch = 0;
        }
      }
      if (batch) yield batch;
      if (inBatch > 0) await onProgress?.({ group, phase: 'csv', records: inBatch, attempt });
    }
    const csv = await writeFile(
      options.store,
      fileNames.csv(group),
      'text/csv; charset=utf-8',
      rows(),
      false,
    );
    const readBack = check.result();
    if (
      readBack.sha256 !== written.sha256 ||
      readBack.bytes !== written.bytes ||
      lines.count !== written.records
    )
      throw new ExportError(`${name} as stored differs from what was written; the export wrote no manifest.`);
    return csv;
  }
}

/** Streams a source through gzip (or not) into the store, returning the stored bytes' size and hash. */
async function writeFile(
  store: ExportStore,
  name: string,
  contentType: string,
  source: AsyncIterable<string | Uint8Array> | Iterable<string | Uint8Array>,
  gzip: boolean,
): Promise<Digested> {
  const digest = new Digest();
  const body = new PassThrough();
  const controller = new AbortController();
  const producing = pipeline(Readable.from(source), gzip ? createGzip() : new PassThrough(), digest, body);
  const storing = store.write(name, body, contentType, controller.signal);
  try {
    await Promise.all([producing, storing]);
  } catch (error) {
    controller.abort();
    body.destroy();
    await Promise.allSettled([producing, storing]);
    throw error;
  }
  return digest.result();
}
