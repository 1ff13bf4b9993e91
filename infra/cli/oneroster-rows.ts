// Reads a OneRoster CSV 1.2.1 zip (bulk or delta, this service's export or another system's) into the
// writes that load it, phase by phase in the order references need: orgs (parents first), academic
// sessions (parents first), courses, classes, users with their role records, enrollments, then the
// gradebook's categories, score scales, line items (each with its scale from lineItemScoreScales.csv)
// and results; then, for a delta's `tobedeleted` rows, the deletions, results first and orgs last. Every
// write carries the file and line it came from. docs/oneroster.md says what each column becomes.
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { unzipSync } from 'fflate';
import { DomainError, InvalidInputError } from '../../shared/domain/errors';
import { idFields, type RecordGroup, type RoleGroup } from '../../shared/domain/groups';
import { isUuid } from '../../shared/domain/identifiers';
import { parseInstant } from '../../shared/domain/instants';
import { orgTypes } from '../../shared/domain/rostering';
import { decimalIn, restoredCells } from '../../shared/exports/csv';
import { type ScaleValue, scaleOf } from '../../shared/oneroster/scale-values';
import type { SourcedIds, SourcedKind } from './oneroster-ids';
import { isUtf8, notUtf8 } from './read-rows';

type Cells = Record<string, string>;

/** One record to write: upserted by its id (fields of `defaults` only when it is created), or deleted. */
export type Write =
  | {
      kind: 'upsert';
      group: RecordGroup;
      value: Record<string, unknown>;
      defaults?: Record<string, unknown>;
      /** What the row says that the record does not hold, checked as it is written. */
      checks?: Record<string, string>;
    }
  | { kind: 'delete'; group: RecordGroup; id: string }
  /** A person: every role record, then the entity (which ends their enrollments). */
  | { kind: 'delete-person'; id: string };

/** A row of a file and what it writes; a row that could not be read carries why instead. */
export interface PlannedRow {
  line: number;
  writes: Write[];
  error?: string;
}

/** Rows of one file written together; `serial` when rows of the file name each other (parents). */
export interface Phase {
  table: string;
  rows: PlannedRow[];
  serial: boolean;
}

export class OneRosterZipError extends Error {}

/** The files this reader loads; any other a manifest lists as bulk or delta is reported as not loaded. */
const loaded = [
  'orgs',
  'academicSessions',
  'courses',
  'classes',
  'users',
  'roles',
  'demographics',
  'enrollments',
  'categories',
  'scoreScales',
  'lineItems',
  'lineItemScoreScales',
  'results',
];

const sessionTypes: Record<string, string> = {
  schoolYear: 'school_year',
  term: 'term',
  semester: 'semester',
  gradingPeriod: 'grading_period',
};

/** The native role group of a OneRoster role: guardians, parents and relatives are tutors; any other adult is staff. */
export function roleGroupOf(role: string): RoleGroup {
  if (role === 'student') return 'students';
  if (role === 'teacher') return 'teachers';
  if (role === 'guardian' || role === 'parent' || role === 'relative') return 'tutors';
  return 'staffs';
}

const listOf = (cell: string | undefined) =>
  cell
    ? cell
        .split(',')
        .map((v) => v.trim())
        .filter(Boolean)
    : [];
const orNull = (cell: string | undefined) => (cell ? cell : null);

/** The binding's `sex` as the native free-text gender: male, female and other as they are, anything else none. */
const genderOf = (sex: string) => (sex === 'male' || sex === 'female' || sex === 'other' ? sex : '');

interface Parsed {
  mode: 'bulk' | 'delta';
  /** Each row's cells by column, or why the row is not read. */
  rows: { cells: Cells; line: number; error?: string }[];
}

/** The address an entity gets when its file gives none: the native model requires one, `.invalid` says it is none. */
const noAddress = (id: string) => `${id}@oneroster.invalid`;

/** The zip's writes, and the files it lists that this reader does not load. */
export function readOneRosterZip(file: string, ids: SourcedIds): { phases: Phase[]; skipped: string[] } {
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(readFileSync(file));
  } catch (error) {
    throw new OneRosterZipError(`${file} is not a zip (${(error as Error).message}).`);
  }
  const manifestFile = files['manifest.csv'];
  if (!manifestFile) throw new OneRosterZipError(`${file} has no manifest.csv.`);
  for (const [name, body] of Object.entries(files))
    if (name.endsWith('.csv') && !isUtf8(body)) throw new OneRosterZipError(notUtf8(name));
  const manifest = new Map(
    (parse(Buffer.from(manifestFile), { columns: true, bom: true, skip_empty_lines: true }) as Cells[]).map(
      (r) => [r.propertyName, r.value],
    ),
  );
  if (manifest.get('oneroster.version') !== '1.2')
    throw new OneRosterZipError('manifest.csv must say oneroster.version 1.2.');
  const listed = [...manifest.entries()]
    .filter(([property, mode]) => property?.startsWith('file.') && (mode === 'bulk' || mode === 'delta'))
    .map(([property]) => (property as string).slice('file.'.length));
  const skipped = listed.filter((name) => !loaded.includes(name));

  const tables = new Map<string, Parsed>();
  for (const table of listed.filter((name) => loaded.includes(name))) {
    const mode = manifest.get(`file.${table}`) as 'bulk' | 'delta';
    const body = files[`${table}.csv`];
    if (!body)
      throw new OneRosterZipError(`manifest.csv lists ${table}.csv as ${mode}, but the zip lacks it.`);
    let records: { record: Cells; info: { lines: number; invalid_field_length: number } }[];
    try {
      records = parse(Buffer.from(body), {
        columns: true,
        bom: true,
        info: true,
        relax_column_count: true,
        skip_empty_lines: true,
      });
    } catch (error) {
      throw new OneRosterZipError(`${table}.csv is not readable as CSV (${(error as Error).message}).`);
    }
    // A row of more or fewer cells than the header (a comma left unquoted) is not read: its cells would
    // be read into the wrong columns. csv-parse counts such rows so far in `invalid_field_length`.
    let uneven = 0;
    tables.set(table, {
      mode,
      rows: records.map(({ record, info }) => {
        const row = { cells: restoredCells(record), line: info.lines };
        if (info.invalid_field_length === uneven) return row;
        uneven = info.invalid_field_length;
        return { ...row, error: 'has another number of cells than the header' };
      }),
    });
  }
  return { phases: new Planner(tables, ids).phases(), skipped };
}

/** Turns the parsed files into phases of writes. */
class Planner {
  private readonly deletions = new Map<string, PlannedRow[]>();

  constructor(
    private readonly tables: Map<string, Parsed>,
    private readonly ids: SourcedIds,
  ) {}

  private id(kind: SourcedKind, sourcedId: string | undefined) {
    return sourcedId ? this.ids.id(kind, sourcedId) : undefined;
  }

  /**
   * The rows of a file to upsert, each read by `toWrites`; a delta's `tobedeleted` rows are kept for the
   * deletion phases. A row without a sourcedId, or with a status the binding does not have, is refused.
   */
  private rowsOf(
    table: string,
    toWrites: (cells: Cells) => Write[],
    toDelete: (id: string, cells: Cells) => Write[],
  ) {
    const parsed = this.tables.get(table);
    if (!parsed) return [];
    const upserts: (PlannedRow & { cells: Cells })[] = [];
    const deletions: PlannedRow[] = [];
    /** The line of each sourcedId's first row: a file names each object once. */
    const firstLine = new Map<string, number>();
    for (const { cells, line, error } of parsed.rows) {
      const status = cells.status ?? '';
      const sourcedId = cells.sourcedId?.trim();
      // A UUID names the same object in either case (SourcedIds keeps it in lower case).
      const key = sourcedId && isUuid(sourcedId) ? sourcedId.toLowerCase() : sourcedId;
      const first = key ? firstLine.get(key) : undefined;
      if (key && first === undefined) firstLine.set(key, line);
      if (error) upserts.push({ line, cells, writes: [], error });
      else if (!sourcedId) upserts.push({ line, cells, writes: [], error: 'sourcedId is empty' });
      else if (first !== undefined)
        upserts.push({ line, cells, writes: [], error: `sourcedId: is the one of line ${first} again` });
      else if (status === 'tobedeleted' && parsed.mode === 'delta')
        deletions.push({ line, writes: toDelete(sourcedId, cells) });
      else if (status === 'tobedeleted')
        upserts.push({
          line,
          cells,
          writes: [],
          error: 'status tobedeleted is for a delta file, not a bulk one',
        });
      else if (status !== '' && status !== 'active')
        upserts.push({
          line,
          cells,
          writes: [],
          error: `status must be active or tobedeleted, not ${status}`,
        });
      else upserts.push({ line, cells, ...writesOf(toWrites, cells) });
    }
    if (deletions.length > 0) this.deletions.set(table, deletions);
    return upserts;
  }

  /** Rows whose parent is a row of the same file after it: each after its parent, deepest last. */
  private parentsFirst<R extends { cells: Cells }>(rows: R[]): R[] {
    const parents = new Map(rows.map((r) => [r.cells.sourcedId, r.cells.parentSourcedId]));
    const depth = (id: string | undefined, seen = new Set<string>()): number => {
      const parent = id === undefined ? undefined : parents.get(id);
      if (!parent || !parents.has(parent) || seen.has(parent)) return 0;
      seen.add(parent);
      return 1 + depth(parent, seen);
    };
    return rows
      .map((row) => ({ row, depth: depth(row.cells.sourcedId) }))
      .sort((a, b) => a.depth - b.depth)
      .map(({ row }) => row);
  }

  phases(): Phase[] {
    const phases: Phase[] = [];
    const add = (table: string, rows: PlannedRow[], serial = false) => {
      if (this.tables.has(table)) phases.push({ table, rows, serial });
    };
    const remove =
      (group: RecordGroup, kind: SourcedKind) =>
      (sourcedId: string): Write[] => [{ kind: 'delete', group, id: this.ids.id(kind, sourcedId) }];

    const orgs = this.rowsOf(
      'orgs',
      (c) => {
        const id = this.ids.id('org', c.sourcedId as string);
        return [
          {
            kind: 'upsert',
            group: 'entities',
            value: {
              entity_id: id,
              entity_type: 'organisation',
              name: c.name,
              // A type of the binding the native model has not (an `ext:` one) leaves org_type unset.
              ...((orgTypes as readonly string[]).includes(c.type ?? '') ? { org_type: c.type } : {}),
              parent_id: this.id('org', c.parentSourcedId) ?? null,
            },
            defaults: { email: noAddress(id) },
          },
        ];
      },
      remove('entities', 'org'),
    );
    add('orgs', this.parentsFirst(orgs), true);

    const sessions = this.rowsOf(
      'academicSessions',
      (c) => [
        {
          kind: 'upsert',
          group: 'academic_sessions',
          value: {
            academic_session_id: this.ids.id('academicSession', c.sourcedId as string),
            title: c.title,
            type: sessionTypes[c.type ?? ''] ?? c.type,
            start_date: c.startDate,
            end_date: c.endDate,
            parent_id: this.id('academicSession', c.parentSourcedId) ?? null,
            school_year: c.schoolYear,
          },
        },
      ],
      remove('academic_sessions', 'academicSession'),
    );
    add('academicSessions', this.parentsFirst(sessions), true);

    add(
      'courses',
      this.rowsOf(
        'courses',
        (c) => [
          {
            kind: 'upsert',
            group: 'courses',
            value: {
              course_id: this.ids.id('course', c.sourcedId as string),
              title: c.title,
              course_code: c.courseCode ?? '',
              grades: listOf(c.grades),
              subjects: listOf(c.subjects),
              org_id: this.id('org', c.orgSourcedId),
            },
          },
        ],
        remove('courses', 'course'),
      ),
    );

    add(
      'classes',
      this.rowsOf(
        'classes',
        (c) => [
          {
            kind: 'upsert',
            group: 'classes',
            value: {
              class_id: this.ids.id('class', c.sourcedId as string),
              title: c.title,
              class_code: c.classCode ?? '',
              class_type: c.classType || 'scheduled',
              course_id: this.id('course', c.courseSourcedId),
              school_id: this.id('org', c.schoolSourcedId),
              term_ids: listOf(c.termSourcedIds).map((t) => this.ids.id('academicSession', t)),
              periods: listOf(c.periods),
              location: c.location ?? '',
            },
          },
        ],
        remove('classes', 'class'),
      ),
    );

    this.addPeople(add);

    add(
      'enrollments',
      this.rowsOf(
        'enrollments',
        (c) => [
          {
            kind: 'upsert',
            group: 'enrollments',
            value: {
              enrollment_id: this.ids.id('enrollment', c.sourcedId as string),
              class_id: this.id('class', c.classSourcedId),
              entity_id: this.id('user', c.userSourcedId),
              role: c.role === 'ext:aide' ? 'aide' : c.role,
              primary: c.primary === 'true' ? true : c.primary === 'false' || !c.primary ? false : c.primary,
              begin_date: orNull(c.beginDate),
              end_date: orNull(c.endDate),
            },
          },
        ],
        remove('enrollments', 'enrollment'),
      ),
    );

    this.addGradebook(add, remove);

    // Deletions: what names a record goes before it.
    for (const table of [
      'results',
      'lineItems',
      'scoreScales',
      'categories',
      'enrollments',
      'classes',
      'courses',
      'academicSessions',
      'roles',
      'users',
      'orgs',
    ]) {
      const rows = this.deletions.get(table);
      if (rows) phases.push({ table, rows, serial: table === 'orgs' || table === 'academicSessions' });
    }
    return phases;
  }

  /**
   * The gradebook's files. A line item's score scale is the one its row of lineItemScoreScales.csv names;
   * without one it keeps the scale it has (the tenant's scales are not the binding's, so a file cannot
   * name them). Whatever the file leaves to the tenant is read when the rows are written
   * (oneroster-gradebook.ts): a new category's school year, whether a line item's session is a grading
   * period, a result's student record and class.
   */
  private addGradebook(
    add: (table: string, rows: PlannedRow[]) => void,
    remove: (group: RecordGroup, kind: SourcedKind) => (sourcedId: string) => Write[],
  ) {
    add(
      'categories',
      this.rowsOf(
        'categories',
        (c) => [
          {
            kind: 'upsert',
            group: 'categories',
            value: {
              category_id: this.ids.id('category', c.sourcedId as string),
              title: c.title,
              ...(c.weight ? { weight: numberOf(c.weight) } : {}),
            },
            defaults: { weight: 1 },
          },
        ],
        remove('categories', 'category'),
      ),
    );

    // The binding's scales are each a class's: a row names its class (the tenant's scales, which name
    // none, are not the file's to change or delete; oneroster-gradebook.ts refuses those).
    const scales = this.rowsOf(
      'scoreScales',
      (c) => {
        if (!c.classSourcedId?.trim())
          throw refusal('classSourcedId', "is empty: a score scale is a class's");
        return [
          {
            kind: 'upsert',
            group: 'score_scales',
            value: {
              score_scale_id: this.ids.id('scoreScale', c.sourcedId as string),
              title: c.title,
              class_id: this.ids.id('class', c.classSourcedId),
              ...scaleOf(c.type ?? '', scaleValuesOf(c.scoreScaleValue ?? '')),
            },
          },
        ];
      },
      remove('score_scales', 'scoreScale'),
    );
    add('scoreScales', scales);

    // A line item's scale: its row of lineItemScoreScales.csv, one a line item. A line item of
    // lineItems.csv is written with it (a new one scored on its scale needs it to be made); each row is
    // also written in its own phase after the line items, which sets the scale of a line item the zip
    // does not list. A delta's `tobedeleted` row is not read: a line item leaves a scale for another.
    const links = this.rowsOf(
      'lineItemScoreScales',
      (c) => {
        for (const column of ['lineItemSourcedId', 'scoreScaleSourcedId'])
          if (!c[column]?.trim()) throw refusal(column, 'is empty');
        return [
          {
            kind: 'upsert',
            group: 'line_items',
            value: {
              line_item_id: this.ids.id('lineItem', c.lineItemSourcedId as string),
              score_scale_id: this.ids.id('scoreScale', c.scoreScaleSourcedId as string),
            },
          },
        ];
      },
      () => [],
    );
    const linkLine = new Map<string, number>();
    for (const row of links) {
      const [write] = row.writes;
      if (write?.kind !== 'upsert') continue;
      const item = String(write.value.line_item_id);
      const first = linkLine.get(item);
      if (first === undefined) linkLine.set(item, row.line);
      else {
        row.writes = [];
        row.error = `lineItemSourcedId: has its scale on line ${first}`;
      }
    }
    const scaleOfItem = new Map(
      links.flatMap(({ writes: [write] }) =>
        write?.kind === 'upsert'
          ? [[String(write.value.line_item_id), String(write.value.score_scale_id)]]
          : [],
      ),
    );
    add(
      'lineItems',
      this.rowsOf(
        'lineItems',
        (c) => {
          if (!c.academicSessionSourcedId?.trim())
            throw refusal('academicSessionSourcedId', "is empty: the binding requires a line item's session");
          const id = this.ids.id('lineItem', c.sourcedId as string);
          const scale = scaleOfItem.get(id);
          return [
            {
              kind: 'upsert',
              group: 'line_items',
              value: {
                line_item_id: id,
                class_id: this.id('class', c.classSourcedId),
                title: c.title,
                description: c.description ?? '',
                category_id: this.id('category', c.categorySourcedId),
                assign_date: dayOf(c.assignDate),
                due_date: dayOf(c.dueDate),
                result_value_min: c.resultValueMin ? numberOf(c.resultValueMin) : null,
                result_value_max: c.resultValueMax ? numberOf(c.resultValueMax) : null,
                // Kept only where it is a grading period (oneroster-gradebook.ts).
                grading_period_id: this.ids.id('academicSession', c.academicSessionSourcedId as string),
                ...(scale ? { score_scale_id: scale } : {}),
              },
              defaults: { score_scale_id: null, released: false },
              ...(c.schoolSourcedId?.trim()
                ? { checks: { school_id: this.ids.id('org', c.schoolSourcedId) } }
                : {}),
            },
          ];
        },
        remove('line_items', 'lineItem'),
      ),
    );
    add('lineItemScoreScales', links);

    add(
      'results',
      this.rowsOf(
        'results',
        (c) => [
          {
            kind: 'upsert',
            group: 'results',
            value: {
              result_id: this.ids.id('result', c.sourcedId as string),
              // The class is the line item's, checked against this where given; the student is the
              // user's student record (oneroster-gradebook.ts).
              class_id: this.id('class', c.classSourcedId),
              line_item_id: this.id('lineItem', c.lineItemSourcedId),
              student_id: this.id('user', c.studentSourcedId),
              status: c.scoreStatus,
              score: c.score ? numberOf(c.score) : null,
              text_score: c.textScore || null,
              score_date: dayOf(c.scoreDate),
              comment: c.comment ?? '',
            },
          },
        ],
        remove('results', 'result'),
      ),
    );
  }

  /**
   * Users as person entities, and their roles (roles.csv, or users.csv's `role` column without it) as
   * role records, with the demographics of demographics.csv. Tutors go in a phase after the others: a
   * tutor's students must exist first.
   */
  private addPeople(add: (table: string, rows: PlannedRow[], serial?: boolean) => void) {
    const users = new Map(
      (this.tables.get('users')?.rows ?? []).map(({ cells }) => [cells.sourcedId ?? '', cells]),
    );
    const demographics = new Map(
      (this.tables.get('demographics')?.rows ?? [])
        .filter(({ cells }) => cells.status !== 'tobedeleted')
        .map(({ cells }) => [cells.sourcedId ?? '', cells]),
    );
    const fromRoles = this.tables.has('roles');
    /** Each role as (its id, the user, the OneRoster role, where it was read). */
    const roleRows = fromRoles
      ? (this.tables.get('roles')?.rows ?? []).map(({ cells }) => ({
          id: this.id('role', cells.sourcedId) ?? '',
          user: cells.userSourcedId ?? '',
          role: cells.role ?? '',
        }))
      : [...users.values()].map((cells) => ({
          id: this.ids.id('role', `${cells.sourcedId}:${cells.role}`),
          user: cells.sourcedId ?? '',
          role: cells.role ?? '',
        }));
    const studentRole = new Map(roleRows.filter((r) => r.role === 'student').map((r) => [r.user, r.id]));
    /** Who names each user among their agentSourcedIds, read once: a district has 100,000 guardians. */
    const namedBy = new Map<string, string[]>();
    for (const [sourcedId, cells] of users)
      for (const agent of listOf(cells.agentSourcedIds)) {
        const naming = namedBy.get(agent) ?? [];
        naming.push(sourcedId);
        namedBy.set(agent, naming);
      }
    /** A guardian's students: the users its agentSourcedIds name, and those naming it, that are students. */
    const studentsOf = (guardian: string) => {
      const agents = new Set([
        ...listOf(users.get(guardian)?.agentSourcedIds),
        ...(namedBy.get(guardian) ?? []),
      ]);
      return [...agents].flatMap((agent) => studentRole.get(agent) ?? []);
    };

    const roleWrite = (id: string, userSourcedId: string, role: string): Write => {
      const group = roleGroupOf(role);
      const entityId = this.ids.id('user', userSourcedId);
      const user = users.get(userSourcedId);
      const demographic = demographics.get(userSourcedId);
      const students = group === 'tutors' ? studentsOf(userSourcedId) : [];
      return {
        kind: 'upsert',
        group,
        value: {
          [idFields[group]]: id,
          entity_id: entityId,
          ...(user ? { name: nameOf(user), ative: user.enabledUser !== 'false' } : {}),
          ...(user?.email ? { email: user.email } : {}),
          ...(demographic?.birthDate ? { birth_date: demographic.birthDate } : {}),
          ...(demographic
            ? { gender: genderOf(demographic.sex ?? ''), naturality: demographic.cityOfBirth ?? '' }
            : {}),
          // Without students in the zip, a tutor keeps the ones it has (and a new one is refused).
          ...(students.length > 0 ? { student_ids: students } : {}),
        },
        // A role record keeps the processnumber it was created with.
        defaults: {
          processnumber: user?.identifier || userSourcedId,
          email: noAddress(entityId),
          ative: true,
        },
      };
    };

    const userRows = this.rowsOf(
      'users',
      (c) => {
        const entityId = this.ids.id('user', c.sourcedId as string);
        const entity: Write = {
          kind: 'upsert',
          group: 'entities',
          value: {
            entity_id: entityId,
            entity_type: 'person',
            name: nameOf(c),
            ...(c.email ? { email: c.email } : {}),
          },
          defaults: { email: noAddress(entityId) },
        };
        if (fromRoles) return [entity];
        return [
          entity,
          roleWrite(this.ids.id('role', `${c.sourcedId}:${c.role}`), c.sourcedId as string, c.role ?? ''),
        ];
      },
      (sourcedId) => [{ kind: 'delete-person', id: this.ids.id('user', sourcedId) }],
    );
    const isTutor = (write: Write) => write.kind === 'upsert' && write.group === 'tutors';
    // A user's tutor record, from users.csv's role column, is written in the tutors' phase.
    add(
      'users',
      userRows.map((row) => ({ ...row, writes: row.writes.filter((w) => !isTutor(w)) })),
    );
    const roles = fromRoles
      ? this.rowsOf(
          'roles',
          (c) => [roleWrite(this.ids.id('role', c.sourcedId as string), c.userSourcedId ?? '', c.role ?? '')],
          (sourcedId, c) => [
            { kind: 'delete', group: roleGroupOf(c.role ?? ''), id: this.ids.id('role', sourcedId) },
          ],
        )
      : userRows
          .map((row) => ({ ...row, writes: row.writes.filter(isTutor) }))
          .filter((r) => r.writes.length > 0);
    const rolesTable = fromRoles ? 'roles' : 'users';
    add(
      rolesTable,
      roles.filter((r) => !r.writes.some(isTutor)),
    );
    const tutors = roles.filter((r) => r.writes.some(isTutor));
    if (tutors.length > 0) add(rolesTable, tutors);
  }
}

/** A row's writes, or why the row cannot be read (a refusal of the native model's, by field). */
function writesOf(toWrites: (cells: Cells) => Write[], cells: Cells): { writes: Write[]; error?: string } {
  try {
    return { writes: toWrites(cells) };
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    return {
      writes: [],
      error: error.problems?.map((p) => `${p.name}: ${p.reason}`).join('; ') ?? error.message,
    };
  }
}

/** A refusal of a row's cell. */
const refusal = (column: string, reason: string) =>
  new InvalidInputError(`${column} ${reason}`, [{ name: column, in: 'body', reason }]);

/** A Float cell as a number; a cell that is none is kept as it is, for the validation to refuse. */
const numberOf = (cell: string): number | string => decimalIn(cell) ?? cell;

/**
 * A Date cell as the native day; an ISO 8601 date-time with its zone, of a day and time there are (as the
 * REST binding writes one), is taken in UTC. Anything else is kept as it is, for the validation to refuse.
 */
function dayOf(cell: string | undefined): string | undefined {
  return cell === undefined ? cell : (parseInstant(cell)?.slice(0, 10) ?? cell);
}

/**
 * A List of Strings of `{LHS:RHS}` pairs, comma-separated, as the binding writes scoreScaleValue; neither
 * side holds a brace or a colon. Read by splitting, not by one pattern, which would backtrack for long on
 * a cell of many blanks.
 */
function scaleValuesOf(cell: string): ScaleValue[] {
  const body = cell.trim();
  const pairs = body.startsWith('{') && body.endsWith('}') ? body.slice(1, -1).split(/\}\s*,\s*\{/) : [];
  const values = pairs.map((pair) => pair.split(':'));
  if (values.length === 0 || values.some((sides) => sides.length !== 2 || /[{}]/.test(sides.join(''))))
    throw refusal('scoreScaleValue', 'must be {LHS:RHS} pairs, comma-separated');
  return values.map(([lhs, rhs]) => ({
    itemValueLHS: (lhs as string).trim(),
    itemValueRHS: (rhs as string).trim(),
  }));
}

/** The native name from givenName and familyName; the export writes a one-word name as both. */
function nameOf(cells: Cells): string {
  const given = cells.givenName?.trim() ?? '';
  const family = cells.familyName?.trim() ?? '';
  if (!given || !family || given === family) return given || family;
  return `${given} ${family}`;
}
