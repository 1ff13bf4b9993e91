// The OneRoster CSV 1.2.1 delta zip of an export run (`npm run export -- --delta-since <t>`,
// docs/exports.md): the rows of the run's bulk tables whose records changed after <t>, `active` with
// their dateLastModified, and a `tobedeleted` row for each record deleted since then (from the deletion
// feeds, within their retention) that the run did not find again. The rows are the bulk zip's own, made
// from the same snapshot, so a delta row and a bulk row of a record agree cell for cell.
import type { Deletion } from '../data/pages';
import { type RecordGroup, type RoleGroup, roleGroups, roleName } from '../domain/groups';
import { oneRosterRoles } from '../oneroster/objects';
import { byTable, type OneRosterTable } from './oneroster-csv';
import type { DatedRow, Row, Rows } from './roster-source';

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
/**
 * Each group's deletions since a delta's start, read as they are needed: in hand, or a feed read a page
 * at a time.
 */
export type DeltaDeletions = {
  [G in (typeof deltaDeletionGroups)[number]]: Iterable<Deletion<G>> | AsyncIterable<Deletion<G>>;
};

/**
 * The rows of `tobedeleted` records by table, each once at its latest deletion: of each deletion, only
 * its row is kept, never what the deletion kept of the record.
 */
async function deletedRows(deletions: DeltaDeletions): Promise<Record<OneRosterTable, Map<string, Row>>> {
  const tables = byTable(() => new Map<string, Row>());
  const add = (table: OneRosterTable, id: string, at: string, cells: Row = {}) => {
    const known = tables[table].get(id)?.dateLastModified;
    if (known === undefined || Date.parse(at) > Date.parse(known))
      tables[table].set(id, { sourcedId: id, status: 'tobedeleted', dateLastModified: at, ...cells });
  };
  for await (const { id, deleted_at, kept } of deletions.entities) {
    if (kept.entity_type === 'organisation') add('orgs', id, deleted_at);
    else add('users', id, deleted_at);
  }
  for (const group of roleGroups) {
    for await (const { id, deleted_at, kept } of deletions[group] as AsyncIterable<Deletion<RoleGroup>>) {
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
    for await (const { id, deleted_at } of deletions[group]) add(table, id, deleted_at);
  // The binding's score scales are the classes' own: a deleted scale of the tenant's was never in a zip.
  for await (const { id, deleted_at, kept } of deletions.score_scales)
    if (kept.class_id) add('scoreScales', id, deleted_at);
  return tables;
}

/**
 * The delta tables: of each bulk table, the rows changed after `since`, active with when, then the
 * deleted records that are not among its rows (a person who lost one role of two keeps their user row;
 * an id made again is there as it is now).
 */
export async function deltaRows(
  tables: Record<OneRosterTable, Rows<DatedRow>>,
  since: string,
  deletions: DeltaDeletions,
): Promise<Record<OneRosterTable, Rows<Row>>> {
  const deleted = await deletedRows(deletions);
  const after = (at: string) => Date.parse(at) > Date.parse(since);
  return byTable(
    (table) =>
      async function* () {
        // A person who keeps a role has a user row, so only one who has none left is told of as deleted.
        const gone = new Map(deleted[table]);
        for await (const { row, at } of tables[table]()) {
          gone.delete(row.sourcedId ?? '');
          if (after(at)) yield { ...row, status: 'active', dateLastModified: at };
        }
        yield* gone.values();
      },
  );
}
