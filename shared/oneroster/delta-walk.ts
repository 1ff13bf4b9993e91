// A delta read a page at a time (docs/oneroster.md, "What each request reads"): the entries of what
// changed and what was deleted since, in change order, made into objects a batch at a time, those the
// filter selects kept until the page is full and one more shows that the walk goes on. Pure: the reader
// gives the entries and the collection makes its objects.
import type { CollectionQuery } from './collection-query';
import { matches } from './filter';

/** An object of the collection, at the position of the entry it was made from. */
export interface Placed<T> {
  position: string;
  object: T;
}

export interface WalkedPage<T> {
  page: Placed<T>[];
  /** Whether the filter selects more objects after the page. */
  more: boolean;
  /** Every object made on the way, selected or not, for the audit event. */
  examined: T[];
}

/**
 * The page of objects the query asks for: after its `after` position (the entries start there), or past
 * its first `offset` selected objects. Entries are made `limit + 1` at a time; `make` drops those that
 * are not of the collection (an organisation among the changed entities, a deleted role record whose
 * person still has the role).
 */
export async function walkPage<E, T extends { sourcedId: string }>(
  entries: AsyncIterable<E>,
  query: Pick<CollectionQuery, 'limit' | 'offset' | 'after' | 'filter'>,
  make: (batch: E[]) => Promise<Placed<T>[]>,
): Promise<WalkedPage<T>> {
  let skip = query.after === undefined ? query.offset : 0;
  const kept: Placed<T>[] = [];
  const examined: T[] = [];
  const take = async (batch: E[]) => {
    for (const placed of await make(batch)) {
      examined.push(placed.object);
      if (kept.length > query.limit || (query.filter && !matches(placed.object, query.filter))) continue;
      if (skip > 0) skip -= 1;
      else kept.push(placed);
    }
  };
  let batch: E[] = [];
  for await (const entry of entries) {
    batch.push(entry);
    if (batch.length <= query.limit) continue;
    await take(batch);
    batch = [];
    if (kept.length > query.limit) break;
  }
  if (batch.length > 0) await take(batch);
  return { page: kept.slice(0, query.limit), more: kept.length > query.limit, examined };
}
