// `npm run import -- <file> --group <group>`: loads the records of a group from CSV, JSON or NDJSON into a
// tenant: students, teachers, tutors or staffs upserted by processnumber; academic sessions, courses,
// classes and enrollments by their ids, which the file carries. Bad rows are reported by line and
// skipped; the good ones are written. Exits 1 when any row was refused, 2 on bad arguments.
// `npm run import -- roster.zip --format oneroster` loads a OneRoster CSV 1.2.1 bulk or delta zip, this
// service's or another system's (orgs, sessions, courses, classes, users with their roles and
// demographics, enrollments, and a delta's deletions) the same way, reporting bad rows by file and line;
// `--batch 1` writes one record a transaction, the slow way a bulk import is checked against.
import { parseArgs } from 'node:util';
import { createDocumentClient } from '../../shared/data/document-client';
import { RecordRepository } from '../../shared/data/record-repository';
import { type RecordGroup, recordGroups, roleNamesInWords } from '../../shared/domain/groups';
import { knownFields } from '../../shared/records/write-records';
import { ImportWriter } from './import-writer';
import { SourcedIds } from './oneroster-ids';
import { BATCH_ROWS, importOneRoster } from './oneroster-import';
import { OneRosterZipError } from './oneroster-rows';
import { type Format, formatOf, NotCsvError, NotUtf8Error, type Row, readRows } from './read-rows';
import { emptyTally, runRows, type Tally, tallyOf } from './row-pool';
import { resolveTarget } from './target';
import { createUpserter, type Outcome } from './upsert';

/** Why a group is not imported; every other group is. */
const notImportable: Partial<Record<RecordGroup, string>> = {
  entities: `Entities are created with their ${roleNamesInWords} records; import those groups instead.`,
};

/** The groups a file can load. */
const importable = recordGroups.filter((group) => notImportable[group] === undefined);

const usage = `usage: npm run import -- <file.csv|file.json|file.ndjson> --group <${importable.join('|')}> [--format csv|json|ndjson] [--concurrency 8]
       npm run import -- <roster.zip> --format oneroster [--concurrency 8] [--batch ${BATCH_ROWS}]`;

function fail(message: string): never {
  console.error(`${message}\n${usage}`);
  process.exit(2);
}

function parseArguments() {
  let parsed: ReturnType<
    typeof parseArgs<{
      options: {
        group: { type: 'string' };
        format: { type: 'string' };
        concurrency: { type: 'string' };
        batch: { type: 'string' };
      };
      allowPositionals: true;
    }>
  >;
  try {
    parsed = parseArgs({
      options: {
        group: { type: 'string' },
        format: { type: 'string' },
        concurrency: { type: 'string' },
        batch: { type: 'string' },
      },
      allowPositionals: true,
    });
  } catch (error) {
    fail((error as Error).message);
  }
  const [file, ...extra] = parsed.positionals;
  if (!file || extra.length > 0) fail('Name one file to import.');
  const concurrency = Number(parsed.values.concurrency ?? 8);
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 64)
    fail('--concurrency must be 1 to 64.');
  if (parsed.values.format === 'oneroster') {
    if (parsed.values.group) fail('A OneRoster zip names its tables; leave out --group.');
    const batch = Number(parsed.values.batch ?? BATCH_ROWS);
    if (!Number.isInteger(batch) || batch < 1 || batch > 1000) fail('--batch must be 1 to 1000.');
    return { file, format: 'oneroster' as const, concurrency, batch };
  }
  if (parsed.values.batch) fail('--batch is for a OneRoster zip.');
  const group = parsed.values.group as RecordGroup | undefined;
  if (!group || !recordGroups.includes(group)) fail(`--group must be one of ${importable.join(', ')}.`);
  const refusal = notImportable[group];
  if (refusal) fail(refusal);
  const format = (parsed.values.format ?? formatOf(file)) as Format | undefined;
  if (format !== 'csv' && format !== 'json' && format !== 'ndjson')
    fail('Say the format with --format csv, json, ndjson or oneroster.');
  return { file, group, format, concurrency };
}

const outcomeText = (t: Tally) =>
  `${t.created} created, ${t.updated} updated, ${t.unchanged} unchanged, ${t.refused} refused`;
/** A OneRoster zip may delete: its lines say how many. */
const zipOutcomeText = (t: Tally) => `${outcomeText(t)}, ${t.deleted} deleted`;

async function main() {
  const args = parseArguments();
  const { file, concurrency } = args;
  const target = resolveTarget(process.env);
  const db = createDocumentClient({
    region: target.region,
    endpoint: target.endpoint,
    adaptiveRetries: true,
  });
  const records = new RecordRepository(db, target.tableName);
  const writer = new ImportWriter(db, target.tableName, records);
  const started = Date.now();

  const total = emptyTally();
  let count = 0;
  if (args.format === 'oneroster') {
    const ids = new SourcedIds(target.tenantId);
    const { tables, skipped } = await importOneRoster(file, ids, records, writer, concurrency, args.batch);
    if (skipped.length > 0) console.log(`not loaded: ${skipped.map((t) => `${t}.csv`).join(', ')}`);
    for (const { table, rows, tally, refused } of tables) {
      for (const { line, reasons } of refused)
        console.log(`${table}.csv line ${line}: ${reasons.join('; ')}`);
      console.log(`${table}.csv: ${rows} rows: ${zipOutcomeText(tally)}`);
      for (const key of Object.keys(total) as (keyof Tally)[]) total[key] += tally[key];
      count += rows;
    }
  } else {
    const rows: Row[] = [];
    for await (const row of readRows(file, args.format, args.group)) rows.push(row);
    const upserter = createUpserter(args.group, records, writer, knownFields());
    const outcomes = await runRows(
      rows.map(
        (row) => (): Promise<Outcome> =>
          row.error
            ? Promise.resolve({ result: 'refused', reasons: [row.error] })
            : upserter.upsert(row.value),
      ),
      concurrency,
    );
    const { tally, refused } = tallyOf(
      rows.map((r) => r.line),
      outcomes,
    );
    for (const { line, reasons } of refused) console.log(`line ${line}: ${reasons.join('; ')}`);
    Object.assign(total, tally);
    count = rows.length;
  }
  db.destroy();

  const elapsed = Math.max(0.001, (Date.now() - started) / 1000);
  const rate = (count / elapsed).toFixed(1);
  const outcome = args.format === 'oneroster' ? zipOutcomeText(total) : outcomeText(total);
  // The last line is the whole outcome, for a log or a script to read.
  console.log(`${file}: ${count} rows in ${elapsed.toFixed(1)} s (${rate} rows/s): ${outcome}`);
  process.exit(total.refused > 0 ? 1 : 0);
}

main().catch((error: unknown) => {
  if (error instanceof OneRosterZipError || error instanceof NotUtf8Error || error instanceof NotCsvError)
    fail(error.message);
  console.error(`Import failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
