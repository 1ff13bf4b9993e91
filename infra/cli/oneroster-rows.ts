// Reads a OneRoster CSV 1.2.1 zip (bulk or delta) into native rostering records, table by table, each
// row with the file and line it came from: the inverse of shared/exports/oneroster-csv.ts, so an export's
// zip imports back unchanged. sourcedId is the native id. Orgs and users are not loaded by this reader.
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { unzipSync } from 'fflate';
import type { RecordGroup } from '../../shared/domain/groups';
import type { Row } from './read-rows';

type Cells = Record<string, string>;

/** The tables loaded, in the order their references need, and the native group each fills. */
export const loadedTables = [
  ['academicSessions', 'academic_sessions'],
  ['courses', 'courses'],
  ['classes', 'classes'],
  ['enrollments', 'enrollments'],
] as const satisfies readonly (readonly [string, RecordGroup])[];

const sessionTypes: Record<string, string> = {
  schoolYear: 'school_year',
  term: 'term',
  semester: 'semester',
  gradingPeriod: 'grading_period',
};
/** A school year before its semesters and terms, and those before grading periods: parents first. */
const sessionOrder = ['schoolYear', 'semester', 'term', 'gradingPeriod'];

const listOf = (cell: string | undefined) =>
  cell
    ? cell
        .split(',')
        .map((v) => v.trim())
        .filter(Boolean)
    : [];
const orNull = (cell: string | undefined) => (cell ? cell : null);

const toNative: Record<(typeof loadedTables)[number][0], (c: Cells) => unknown> = {
  academicSessions: (c) => ({
    academic_session_id: c.sourcedId,
    title: c.title,
    type: sessionTypes[c.type ?? ''] ?? c.type,
    start_date: c.startDate,
    end_date: c.endDate,
    parent_id: orNull(c.parentSourcedId),
    school_year: c.schoolYear,
  }),
  courses: (c) => ({
    course_id: c.sourcedId,
    title: c.title,
    course_code: c.courseCode,
    grades: listOf(c.grades),
    subjects: listOf(c.subjects),
    org_id: c.orgSourcedId,
  }),
  classes: (c) => ({
    class_id: c.sourcedId,
    title: c.title,
    class_code: c.classCode,
    class_type: c.classType,
    course_id: c.courseSourcedId,
    school_id: c.schoolSourcedId,
    term_ids: listOf(c.termSourcedIds),
    periods: listOf(c.periods),
    location: c.location ?? '',
  }),
  enrollments: (c) => ({
    enrollment_id: c.sourcedId,
    class_id: c.classSourcedId,
    entity_id: c.userSourcedId,
    role: c.role === 'ext:aide' ? 'aide' : c.role,
    primary: c.primary === 'true' ? true : c.primary === 'false' ? false : c.primary,
    begin_date: orNull(c.beginDate),
    end_date: orNull(c.endDate),
  }),
};

export interface OneRosterTableRows {
  table: string;
  group: RecordGroup;
  mode: 'bulk' | 'delta';
  rows: Row[];
}

export class OneRosterZipError extends Error {}

/** The zip's tables this reader loads, as its manifest.csv declares them; rows not read carry an error. */
export function readOneRosterZip(file: string): { tables: OneRosterTableRows[]; skipped: string[] } {
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(readFileSync(file));
  } catch (error) {
    throw new OneRosterZipError(`${file} is not a zip (${(error as Error).message}).`);
  }
  const manifestFile = files['manifest.csv'];
  if (!manifestFile) throw new OneRosterZipError(`${file} has no manifest.csv.`);
  const manifest = new Map(
    (parse(Buffer.from(manifestFile), { columns: true, bom: true }) as Cells[]).map((r) => [
      r.propertyName,
      r.value,
    ]),
  );
  if (manifest.get('oneroster.version') !== '1.2')
    throw new OneRosterZipError('manifest.csv must say oneroster.version 1.2.');
  const skipped = ['orgs', 'users', 'roles', 'demographics'].filter((t) =>
    ['bulk', 'delta'].includes(manifest.get(`file.${t}`) ?? ''),
  );
  const tables: OneRosterTableRows[] = [];
  for (const [table, group] of loadedTables) {
    const mode = manifest.get(`file.${table}`);
    if (mode !== 'bulk' && mode !== 'delta') continue;
    const body = files[`${table}.csv`];
    if (!body)
      throw new OneRosterZipError(`manifest.csv lists ${table}.csv as ${mode}, but the zip lacks it.`);
    const records = parse(Buffer.from(body), {
      columns: true,
      bom: true,
      info: true,
      relax_column_count: true,
    }) as { record: Cells; info: { lines: number } }[];
    if (table === 'academicSessions')
      records.sort(
        (a, b) => sessionOrder.indexOf(a.record.type ?? '') - sessionOrder.indexOf(b.record.type ?? ''),
      );
    const rows = records.map(({ record, info }): Row => {
      if (record.status === 'tobedeleted')
        return {
          line: info.lines,
          value: undefined,
          error: 'status tobedeleted: delete it through the API; an import only creates and updates',
        };
      if (!record.sourcedId) return { line: info.lines, value: undefined, error: 'sourcedId is empty' };
      return { line: info.lines, value: toNative[table](record) };
    });
    tables.push({ table, group, mode, rows });
  }
  return { tables, skipped };
}
