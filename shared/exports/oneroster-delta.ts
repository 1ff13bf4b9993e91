// The OneRoster CSV 1.2.1 delta zip of an export run (`npm run export -- --delta-since <t>`,
// docs/exports.md): the rows of the run's bulk tables whose records changed after <t>, `active` with
// their dateLastModified, and a `tobedeleted` row for each record deleted since then (from the deletion
// feeds, within their retention) that the run did not find again. The rows are the bulk zip's own, made
// from the same snapshot, so a delta row and a bulk row of a record agree cell for cell.
import type { Deletion } from '../data/pages';
import { idFields, type RecordGroup, type RoleGroup, roleGroups, roleName } from '../domain/groups';
import { oneRosterRoles } from '../oneroster/objects';
import type { GroupRecords } from '../schemas/records';
import {
  type OneRosterTable,
  oneRosterRows,
  oneRosterTables,
  type RosterRecords,
  type Row,
  readRosterRecords,
} from './oneroster-csv';
import type { ExportStore } from './store';

export const ONEROSTER_DELTA_ZIP_NAME = 'oneroster-csv-delta.zip';

/** The groups whose deletions a delta zip tells of. */
export const deltaDeletionGroups = [
  'entities',
  ...roleGroups,
  'academic_sessions',
  'courses',
  'classes',
  'enrollments',
  'categories',
  'score_scales',
  'line_items',
  'results',
] as const satisfies readonly RecordGroup[];
export type DeltaDeletions = { [G in (typeof deltaDeletionGroups)[number]]: Deletion<G>[] };

/** The later of two instants, either may be missing. */
const later = (a: string | undefined, b: string | undefined) =>
  a === undefined ? b : b === undefined ? a : Date.parse(a) >= Date.parse(b) ? a : b;

/** When each row's record last changed after `since`, by sourcedId, for every table. */
function changedAt(records: RosterRecords, since: string): Record<OneRosterTable, Map<string, string>> {
  const after = (at: string) => Date.parse(at) > Date.parse(since);
  /** The records of a group changed after `since`: when, by id. */
  const changed = <G extends RecordGroup>(group: G, list: readonly GroupRecords[G][]) =>
    new Map(
      list.flatMap((r) =>
        after(r.updated_at)
          ? [[(r as Record<string, unknown>)[idFields[group]] as string, r.updated_at] as const]
          : [],
      ),
    );
  const people = records.entities.filter((e) => e.entity_type === 'person');
  const users = changed('entities', people);
  // A role row changes with its record or with its user (its org is the user's school).
  const roles = new Map<string, string>(records.changedRoles);
  for (const e of people) {
    const at = users.get(e.entity_id);
    for (const { id } of e.roles) {
      const when = later(roles.get(id), at);
      if (when !== undefined) roles.set(id, when);
    }
  }
  // Demographics come from the entity and its first role record, as the REST binding's dateLastModified.
  const demographics = new Map(
    people.flatMap((e) => {
      const first = e.roles[0] && records.firstRoles.get(e.roles[0].id);
      const at = later(e.updated_at, first?.updated_at) as string;
      return after(at) ? [[e.entity_id, at] as const] : [];
    }),
  );
  const lineItems = changed('line_items', records.line_items);
  return {
    orgs: changed(
      'entities',
      records.entities.filter((e) => e.entity_type === 'organisation'),
    ),
    academicSessions: changed('academic_sessions', records.academic_sessions),
    courses: changed('courses', records.courses),
    classes: changed('classes', records.classes),
    users,
    roles,
    enrollments: changed('enrollments', records.enrollments),
    demographics,
    categories: changed('categories', records.categories),
    scoreScales: changed('score_scales', records.score_scales),
    lineItems,
    // A line item's row naming its scale has the line item's sourcedId, and changes with it.
    lineItemScoreScales: lineItems,
    results: changed('results', records.results),
  };
}

/** The rows of `tobedeleted` records by table, each once at its latest deletion. */
function deletedRows(deletions: DeltaDeletions): Record<OneRosterTable, Map<string, Row>> {
  const tables = Object.fromEntries(oneRosterTables.map((t) => [t, new Map<string, Row>()])) as Record<
    OneRosterTable,
    Map<string, Row>
  >;
  const add = (table: OneRosterTable, id: string, at: string, cells: Row = {}) => {
    const known = tables[table].get(id)?.dateLastModified;
    if (known === undefined || Date.parse(at) > Date.parse(known))
      tables[table].set(id, { sourcedId: id, status: 'tobedeleted', dateLastModified: at, ...cells });
  };
  for (const { id, deleted_at, kept } of deletions.entities) {
    if (kept.entity_type === 'organisation') add('orgs', id, deleted_at);
    else add('users', id, deleted_at);
  }
  for (const group of roleGroups) {
    for (const { id, deleted_at, kept } of deletions[group] as Deletion<RoleGroup>[]) {
      const role = oneRosterRoles[roleName(group)];
      const user = (kept as { entity_id?: string }).entity_id;
      add('roles', id, deleted_at, { role, userSourcedId: user });
      if (user !== undefined) add('users', user, deleted_at);
    }
  }
  const simple = [
    ['academicSessions', 'academic_sessions'],
    ['courses', 'courses'],
    ['classes', 'classes'],
    ['enrollments', 'enrollments'],
    ['categories', 'categories'],
    ['lineItems', 'line_items'],
    ['results', 'results'],
  ] as const;
  for (const [table, group] of simple)
    for (const { id, deleted_at } of deletions[group]) add(table, id, deleted_at);
  // The binding's score scales are the classes' own: a deleted scale of the tenant's was never in a zip.
  for (const { id, deleted_at, kept } of deletions.score_scales)
    if (kept.class_id) add('scoreScales', id, deleted_at);
  return tables;
}

/**
 * The delta tables: of each bulk table, the rows changed after `since`, then the deleted records that
 * are not among its rows (a person who lost one role of two keeps their user row; an id made again is
 * there as it is now).
 */
export function oneRosterDeltaRows(
  records: RosterRecords,
  since: string,
  deletions: DeltaDeletions,
): Record<OneRosterTable, Row[]> {
  const bulk = oneRosterRows(records);
  const changed = changedAt(records, since);
  const deleted = deletedRows(deletions);
  return Object.fromEntries(
    oneRosterTables.map((table) => {
      // A person who keeps a role has a user row, so only one who has none left is told of as deleted.
      const present = new Set(bulk[table].map((r) => r.sourcedId));
      const active = bulk[table].flatMap((row) => {
        const at = changed[table].get(row.sourcedId ?? '');
        return at === undefined ? [] : [{ ...row, status: 'active', dateLastModified: at }];
      });
      const gone = [...deleted[table].values()].filter((row) => !present.has(row.sourcedId));
      return [table, [...active, ...gone]];
    }),
  ) as Record<OneRosterTable, Row[]>;
}

/** Reads the run's NDJSON files again and makes the delta tables of what changed after `since`. */
export async function readOneRosterDelta(
  store: ExportStore,
  usernames: ReadonlyMap<string, string>,
  since: string,
  deletions: DeltaDeletions,
): Promise<Record<OneRosterTable, Row[]>> {
  return oneRosterDeltaRows(await readRosterRecords(store, usernames, since), since, deletions);
}
