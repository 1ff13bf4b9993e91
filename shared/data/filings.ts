// What a record is filed under: a `referrer` item (item-kinds.ts) for each record it names through a
// `listed` reference (groups.ts). The writers that put a record whole, the seed and `records
// list-again`, write them from here; a record write keeps them in step one change at a time
// (shared/records/write-rules.ts). Apart from record-links.ts, so that no handler's bundle carries it.
import { type GroupDescription, groups, type RecordGroup, type Reference } from '../domain/groups';
import { type Key, keys } from './keys';
import { namedIds } from './record-links';

/** The groups with a `listed` reference: their records are filed under what they name. */
export const filingGroups = Object.entries(groups)
  .filter(([, description]) => (description as GroupDescription).references.some((r: Reference) => r.listed))
  .map(([group]) => group as RecordGroup);

/** The keys of the `referrer` items a record is filed as, under each record it names through a listed reference. */
export function filedUnder(group: RecordGroup, id: string, record: object): Key[] {
  return (groups[group] as GroupDescription).references
    .filter((reference) => reference.listed)
    .flatMap((reference) =>
      namedIds(reference, record).map((named) => keys.referrer(group, reference.field, named, id)),
    );
}
