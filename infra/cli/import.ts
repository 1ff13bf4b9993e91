// `npm run import -- <file> --group <group>`: loads the records of a group from CSV, JSON or NDJSON into a
// tenant: students, teachers, tutors or staffs upserted by processnumber; academic sessions, courses,
// classes and enrollments by their ids, which the file carries. Bad rows are reported by line and
// skipped; the good ones are written. Exits 1 when any row was refused, 2 on bad arguments.
// `npm run import -- roster.zip --format oneroster` loads a OneRoster CSV 1.2.1 bulk or delta zip's
// academic sessions, courses, classes and enrollments the same way, reporting bad rows by file and line.
import { parseArgs } from 'node:util';
import { createDocumentClient } from '../../shared/data/document-client';
import { RecordRepository } from '../../shared/data/record-repository';
import { type RecordGroup, recordGroups, roleNamesInWords } from '../../shared/domain/groups';
import { RecordWriter } from '../../shared/records/record-writer';
import { knownFields } from '../../shared/records/write-records';
import { type OneRosterTableRows, OneRosterZipError, readOneRosterZip } from './oneroster-rows';
import { progressBar } from './progress-bar';
import { type Format, formatOf, type Row, readRows } from './read-rows';
import { resolveTarget } from './target';
import { createUpserter, type Outcome } from './upsert';

/** Why a group is not imported; every other group is. */
const notImportable: Partial<Record<RecordGroup, string>> = {
  entities: `Entities are created with their ${roleNamesInWords} records; import those groups instead.`,
};

/** The groups a file can load. */
const importable = recordGroups.filter((group) => notImportable[group] === undefined);

const usage = `usage: npm run import -- <file.csv|file.json|file.ndjson> --group <${importable.join('|')}> [--format csv|json|ndjson] [--concurrency 8]
       npm run import -- <roster.zip> --format oneroster [--concurrency 8]`;

function fail(message: string): never {
  console.error(`${message}\n${usage}`);
  process.exit(2);
}

function parseArguments() {
  let parsed: ReturnType<
    typeof parseArgs<{
      options: { group: { type: 'string' }; format: { type: 'string' }; concurrency: { type: 'string' } };
      allowPositionals: true;
    }>
  >;
  try {
    parsed = parseArgs({
      options: { group: { type: 'string' }, format: { type: 'string' }, concurrency: { type: 'string' } },
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
    return { file, format: 'oneroster' as const, concurrency };
  }
  const group = parsed.values.group as RecordGroup | undefined;
  if (!group || !recordGroups.includes(group)) fail(`--group must be one of ${importable.join(', ')}.`);
  const refusal = notImportable[group];
  if (refusal) fail(refusal);
  const format = (parsed.values.format ?? formatOf(file)) as Format | undefined;
  if (format !== 'csv' && format !== 'json' && format !== 'ndjson')
    fail('Say the format with --format csv, json, ndjson or oneroster.');
  return { file, group, format, concurrency };
}

type Tally = Record<Outcome['result'], number>;

/** Upserts rows, `concurrency` at a time, counting outcomes and collecting refused rows by line. */
async function importRows(rows: Row[], upsert: (value: unknown) => Promise<Outcome>, concurrency: number) {
  const tally: Tally = { created: 0, updated: 0, unchanged: 0, refused: 0 };
  const refused: { line: number; reasons: string[] }[] = [];
  const started = Date.now();
  const bar = progressBar(
    'importing',
    '{percentage}% | {value}/{total} rows | {rate} rows/s | ETA {eta_formatted}',
  );
  bar.start(rows.length, 0, { rate: '0' });
  let next = 0;
  const work = async () => {
    for (let i = next++; i < rows.length; i = next++) {
      const row = rows[i] as Row;
      const outcome: Outcome = row.error
        ? { result: 'refused', reasons: [row.error] }
        : await upsert(row.value);
      tally[outcome.result] += 1;
      if (outcome.result === 'refused') refused.push({ line: row.line, reasons: outcome.reasons });
      const done = tally.created + tally.updated + tally.unchanged + tally.refused;
      bar.update(done, { rate: (done / Math.max(0.001, (Date.now() - started) / 1000)).toFixed(1) });
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, rows.length) }, work));
  bar.stop();
  refused.sort((a, b) => a.line - b.line);
  return { tally, refused };
}

const outcomeText = (t: Tally) =>
  `${t.created} created, ${t.updated} updated, ${t.unchanged} unchanged, ${t.refused} refused`;

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
  const writer = new RecordWriter(db, target.tableName, records);
  const started = Date.now();

  let tables: OneRosterTableRows[];
  if (args.format === 'oneroster') {
    const zip = readOneRosterZip(file);
    tables = zip.tables;
    if (zip.skipped.length > 0)
      console.log(
        `not loaded (create them through the API): ${zip.skipped.map((t) => `${t}.csv`).join(', ')}`,
      );
  } else {
    const rows: Row[] = [];
    for await (const row of readRows(file, args.format, args.group)) rows.push(row);
    tables = [{ table: '', group: args.group, mode: 'bulk', rows }];
  }

  const total: Tally = { created: 0, updated: 0, unchanged: 0, refused: 0 };
  let count = 0;
  for (const { table, group, rows } of tables) {
    const upserter = createUpserter(group, records, writer, knownFields);
    // A session may name a parent of the same file, so sessions go one at a time, parents first.
    const { tally, refused } = await importRows(
      rows,
      (value) => upserter.upsert(value),
      group === 'academic_sessions' ? 1 : concurrency,
    );
    const where = table ? `${table}.csv line` : 'line';
    for (const { line, reasons } of refused) console.log(`${where} ${line}: ${reasons.join('; ')}`);
    if (table) console.log(`${table}.csv: ${rows.length} rows: ${outcomeText(tally)}`);
    for (const key of Object.keys(total) as (keyof Tally)[]) total[key] += tally[key];
    count += rows.length;
  }
  db.destroy();

  const elapsed = Math.max(0.001, (Date.now() - started) / 1000);
  const rate = (count / elapsed).toFixed(1);
  // The last line is the whole outcome, for a log or a script to read.
  console.log(`${file}: ${count} rows in ${elapsed.toFixed(1)} s (${rate} rows/s): ${outcomeText(total)}`);
  process.exit(total.refused > 0 ? 1 : 0);
}

main().catch((error: unknown) => {
  if (error instanceof OneRosterZipError) fail(error.message);
  console.error(`Import failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
