// The manifest of an export run, written last: the run is complete exactly when it exists. It names every
// file with its record count, size and SHA-256, and each group's total_items at the snapshot.
import * as z from 'zod';
import { recordGroups } from '../domain/groups';

export const MANIFEST_NAME = 'manifest.json';
/** Changes when the layout of the files or the manifest changes in a way readers must know about. */
export const EXPORT_SCHEMA_VERSION = 2;
/** Every run lives under this prefix of the tenant's export bucket, the only one its function may write. */
export const EXPORTS_PREFIX = 'exports/';

export const fileNames = {
  ndjson: (group: string) => `${group}.ndjson.gz`,
  csv: (group: string) => `${group}.csv`,
};

/** Every name a run's files can have: a reader opens only these, whatever a manifest says. */
const allFileNames = recordGroups.flatMap((group) => [fileNames.ndjson(group), fileNames.csv(group)]);

const FileEntry = z.strictObject({
  name: z.enum(allFileNames),
  group: z.enum(recordGroups),
  format: z.enum(['ndjson+gzip', 'csv']),
  records: z.int().min(0),
  bytes: z.int().min(0),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});

/** The OneRoster CSV 1.2.1 bulk zip (docs/oneroster.md): made from every rostering group, rows per table. */
const OneRosterZipEntry = z.strictObject({
  name: z.literal('oneroster-csv.zip'),
  format: z.literal('oneroster-csv+zip'),
  tables: z.record(z.string(), z.int().min(0)),
  bytes: z.int().min(0),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});

/**
 * The OneRoster CSV 1.2.1 delta zip a run writes when asked (`--delta-since`): what changed and was
 * deleted after `since`; the next delta goes on from `until`.
 */
const OneRosterDeltaZipEntry = z.strictObject({
  name: z.literal('oneroster-csv-delta.zip'),
  format: z.literal('oneroster-csv+zip'),
  since: z.iso.datetime(),
  until: z.iso.datetime(),
  tables: z.record(z.string(), z.int().min(0)),
  bytes: z.int().min(0),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});

const GroupEntry = z.strictObject({
  /** The group's count, read from its counter before and after the read: the same, and the files' count. */
  total_items: z.int().min(0),
  read_started_at: z.iso.datetime(),
  read_finished_at: z.iso.datetime(),
  /** Reads of the group: more than one when a record was created or deleted during a read. */
  attempts: z.int().min(1),
});

export const Manifest = z.strictObject({
  schema_version: z.literal(EXPORT_SCHEMA_VERSION),
  tenant_id: z.string(),
  run_id: z.string(),
  service_version: z.string(),
  started_at: z.iso.datetime(),
  finished_at: z.iso.datetime(),
  groups: z.record(z.enum(recordGroups), GroupEntry),
  files: z.array(FileEntry),
  oneroster: OneRosterZipEntry,
  oneroster_delta: OneRosterDeltaZipEntry.optional(),
});

export type Manifest = z.infer<typeof Manifest>;
export type ManifestFile = z.infer<typeof FileEntry>;
export type ManifestOneRosterZip = z.infer<typeof OneRosterZipEntry>;
export type ManifestOneRosterDelta = z.infer<typeof OneRosterDeltaZipEntry>;
export type ManifestGroup = z.infer<typeof GroupEntry>;

/** Whether a folder's name is a run's id (`runIdAt`): the runs of a bucket sort by it in time order. */
export const isRunId = (name: string) => /^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}Z$/.test(name);

/**
 * Where the delta of the run after this one starts: this run's `until` where it wrote a delta, else the
 * sync lag before it began (what its snapshot holds for certain).
 */
export const nextDeltaSince = (previous: Manifest, syncLagMs: number) =>
  previous.oneroster_delta?.until ?? new Date(Date.parse(previous.started_at) - syncLagMs).toISOString();

/** A run's id is the time it is for, to the second, written so it can name a folder anywhere. */
export const runIdAt = (time: Date) =>
  time
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replaceAll(':', '-');
