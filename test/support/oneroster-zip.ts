// Checks a OneRoster CSV 1.2.1 zip as a consumer reads it: with a standard CSV parser, every file the
// manifest marks bulk present (and no other), every required column filled, and every reference naming
// a row of the zip.
import { parse } from 'csv-parse/sync';

type Cells = Record<string, string>;

/**
 * The columns the binding requires a value in (OneRoster 1.2 CSV Tables, section 3; the gradebook's as
 * 1EdTech's OneRoster 1.2 CSV Binding, Final Release of 6 June 2022, has them).
 */
const required: Record<string, string[]> = {
  orgs: ['sourcedId', 'name', 'type'],
  academicSessions: ['sourcedId', 'title', 'type', 'startDate', 'endDate', 'schoolYear'],
  courses: ['sourcedId', 'title', 'orgSourcedId'],
  classes: ['sourcedId', 'title', 'courseSourcedId', 'classType', 'schoolSourcedId', 'termSourcedIds'],
  users: ['sourcedId', 'enabledUser', 'username', 'givenName', 'familyName'],
  roles: ['sourcedId', 'userSourcedId', 'roleType', 'role', 'orgSourcedId'],
  enrollments: ['sourcedId', 'classSourcedId', 'schoolSourcedId', 'userSourcedId', 'role'],
  demographics: ['sourcedId'],
  categories: ['sourcedId', 'title'],
  scoreScales: [
    'sourcedId',
    'title',
    'type',
    'orgSourcedId',
    'courseSourcedId',
    'classSourcedId',
    'scoreScaleValue',
  ],
  lineItems: [
    'sourcedId',
    'title',
    'assignDate',
    'dueDate',
    'classSourcedId',
    'categorySourcedId',
    'academicSessionSourcedId',
    'schoolSourcedId',
  ],
  lineItemScoreScales: ['sourcedId', 'lineItemSourcedId', 'scoreScaleSourcedId'],
  results: ['sourcedId', 'lineItemSourcedId', 'studentSourcedId', 'scoreStatus', 'scoreDate'],
};

/** The columns naming rows of another table, and which; list columns hold comma-separated ids. */
const references: [table: string, column: string, target: string][] = [
  ['orgs', 'parentSourcedId', 'orgs'],
  ['academicSessions', 'parentSourcedId', 'academicSessions'],
  ['courses', 'orgSourcedId', 'orgs'],
  ['courses', 'schoolYearSourcedId', 'academicSessions'],
  ['classes', 'courseSourcedId', 'courses'],
  ['classes', 'schoolSourcedId', 'orgs'],
  ['classes', 'termSourcedIds', 'academicSessions'],
  ['users', 'primaryOrgSourcedId', 'orgs'],
  ['users', 'agentSourcedIds', 'users'],
  ['roles', 'userSourcedId', 'users'],
  ['roles', 'orgSourcedId', 'orgs'],
  ['enrollments', 'classSourcedId', 'classes'],
  ['enrollments', 'schoolSourcedId', 'orgs'],
  ['enrollments', 'userSourcedId', 'users'],
  ['demographics', 'sourcedId', 'users'],
  ['scoreScales', 'orgSourcedId', 'orgs'],
  ['scoreScales', 'courseSourcedId', 'courses'],
  ['scoreScales', 'classSourcedId', 'classes'],
  ['lineItems', 'classSourcedId', 'classes'],
  ['lineItems', 'categorySourcedId', 'categories'],
  ['lineItems', 'academicSessionSourcedId', 'academicSessions'],
  ['lineItems', 'schoolSourcedId', 'orgs'],
  ['lineItemScoreScales', 'lineItemSourcedId', 'lineItems'],
  ['lineItemScoreScales', 'scoreScaleSourcedId', 'scoreScales'],
  ['results', 'lineItemSourcedId', 'lineItems'],
  ['results', 'studentSourcedId', 'users'],
  ['results', 'classSourcedId', 'classes'],
];

/** The tables of a zip by name, and every problem found with them (none for a good zip). */
export function checkOneRosterZip(files: Record<string, Uint8Array>): {
  manifest: Cells;
  tables: Record<string, Cells[]>;
  problems: string[];
} {
  const read = (name: string) =>
    parse(Buffer.from(files[name] as Uint8Array), { columns: true, bom: true }) as Cells[];
  const manifest = Object.fromEntries(read('manifest.csv').map((r) => [r.propertyName, r.value])) as Cells;
  const problems: string[] = [];
  const tables: Record<string, Cells[]> = {};
  for (const [property, mode] of Object.entries(manifest)) {
    if (!property.startsWith('file.')) continue;
    const name = `${property.slice('file.'.length)}.csv`;
    if (mode === 'absent' && files[name]) problems.push(`${name} is in the zip but absent in manifest.csv`);
    if (mode === 'bulk' && !files[name]) problems.push(`${name} is bulk in manifest.csv but not in the zip`);
    if (mode === 'bulk' && files[name]) {
      const rows = read(name);
      if (rows.length === 0) problems.push(`${name} is bulk but has no rows`);
      tables[property.slice('file.'.length)] = rows;
    }
  }
  for (const [table, columns] of Object.entries(required))
    for (const [i, row] of (tables[table] ?? []).entries())
      for (const column of columns)
        if (!row[column]) problems.push(`${table}.csv line ${i + 2}: ${column} is empty`);
  const ids = (table: string) => new Set((tables[table] ?? []).map((r) => r.sourcedId));
  for (const [table, column, target] of references) {
    const known = ids(target);
    for (const [i, row] of (tables[table] ?? []).entries())
      for (const id of (row[column] ?? '').split(',').filter(Boolean))
        if (!known.has(id))
          problems.push(`${table}.csv line ${i + 2}: ${column} ${id} is not in ${target}.csv`);
  }
  return { manifest, tables, problems };
}
