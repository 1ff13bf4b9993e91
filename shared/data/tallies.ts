// What the gradebook's records add up to, kept on write and read by the summaries instead of the records
// (docs/api.md, "Summaries"): a line item's results by status, score and letter, kept on the line item;
// a student's attendance marks by class, or for whole days by month, kept on the student. Each count is
// an internal attribute of that record's item (`_tally#…`), changed in the transaction of every write of
// a record it counts, by the update that already names it there (write-steps.ts, `refer`): what the
// record counted before goes, what it counts now comes, so a tally is exact whatever runs at once.
import { groups, type RecordGroup, type Reference } from '../domain/groups';
import type { Attendance, Result } from '../schemas/records';

/** The prefix of a tally's attributes on the item of the record that keeps it. */
export const TALLY_PREFIX = '_tally#';

/**
 * Each tallied group's rule: the field naming the record that keeps its tally, and what one record
 * counts there. A result counts its status, and unless exempt its score and its letter; an attendance
 * mark its status, in its class or, for a whole day, in its month.
 */
const rules = {
  results: {
    keptBy: 'line_item_id',
    counts: (r: Result) => [
      `status#${r.status}`,
      ...(r.status !== 'exempt' && r.score !== null ? [`score#${r.score}`] : []),
      ...(r.status !== 'exempt' && r.text_score !== null ? [`text#${r.text_score}`] : []),
    ],
  },
  attendance: {
    keptBy: 'student_id',
    counts: (a: Attendance) => [
      `${a.class_id === null ? `day#${a.date.slice(0, 7)}` : `class#${a.class_id}`}#${a.status}`,
    ],
  },
} as const;

export type TalliedGroup = keyof typeof rules;

/** The groups whose records are tallied. */
export const talliedGroups = Object.keys(rules) as TalliedGroup[];

const isTallied = (group: RecordGroup): group is TalliedGroup => group in rules;

/** The field of a group's records that names the record keeping their tally, for a tallied group. */
export const tallyKeptBy = (group: RecordGroup): string | undefined =>
  isTallied(group) ? rules[group].keptBy : undefined;

/** The reference of a group's records to the record keeping their tally, for a tallied group. */
export const tallyKeeper = (group: RecordGroup): Reference | undefined =>
  groups[group].references.find((reference: Reference) => reference.field === tallyKeptBy(group));

/**
 * What a write of a record (none before a create, none after a delete) changes in its group's tally, as
 * the attributes of the record that keeps it and the change of each, leaving out what nets to nothing.
 */
export function tallyChange(
  group: RecordGroup,
  before: object | undefined,
  after: object | undefined,
): Map<string, number> {
  const change = new Map<string, number>();
  if (!isTallied(group)) return change;
  const counts = rules[group].counts as (record: object) => string[];
  for (const [record, by] of [
    [before, -1],
    [after, 1],
  ] as const) {
    if (!record) continue;
    for (const count of counts(record)) {
      const name = `${TALLY_PREFIX}${count}`;
      change.set(name, (change.get(name) ?? 0) + by);
    }
  }
  for (const [name, by] of change) if (by === 0) change.delete(name);
  return change;
}

/**
 * What records of a group add up to on the records keeping their tally: by keeping record's id, each
 * count (a seed's tallies, a recount's); none for a group not tallied.
 */
export function tallyTotals(group: RecordGroup, records: Iterable<object>): Map<string, Map<string, number>> {
  const totals = new Map<string, Map<string, number>>();
  const field = tallyKeptBy(group);
  if (field === undefined) return totals;
  for (const record of records) {
    const id = String((record as Record<string, unknown>)[field]);
    const total = totals.get(id) ?? new Map<string, number>();
    totals.set(id, total);
    for (const [name, by] of tallyChange(group, undefined, record))
      total.set(name, (total.get(name) ?? 0) + by);
  }
  return totals;
}

/**
 * A tally's counts under a prefix (`status`, `score`, `class#<class_id>`, …) by what follows it, from
 * the item of the record that keeps it; none below one.
 */
export function countsOf(item: Record<string, unknown> | undefined, prefix: string): Map<string, number> {
  const counts = new Map<string, number>();
  const start = `${TALLY_PREFIX}${prefix}#`;
  for (const [name, value] of Object.entries(item ?? {})) {
    if (name.startsWith(start) && typeof value === 'number' && value > 0)
      counts.set(name.slice(start.length), value);
  }
  return counts;
}
