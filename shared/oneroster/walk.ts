// A collection read a page at a time by walking it (docs/oneroster.md, "What each request reads"): a
// delta's changes and deletions in change order, or a filtered collection in sourcedId order. The
// entries are made into objects a batch at a time and those the filter selects are kept until the page
// and one more are found, or until the walk has read its budget of entries for the request. Pure: the
// reader gives the entries and the collection makes its objects.
import type { CollectionQuery } from './collection-query';
import { matches } from './filter';

/**
 * The most entries a request reads past its `offset`: the first page of a walk reads on past its page up
 * to it to count what the filter selects, and a filter that selects few objects answers a short (even
 * empty) page with a next link instead of reading the whole collection in one request.
 */
export const WALK_BUDGET = 2_000;

/**
 * How many entries a walk reads and makes at a time: a page and one more when it goes on from a position
 * and stops once its page is full; at least 200 when it counts from the start or skips an offset.
 */
export const batchSize = ({ limit, after }: Pick<CollectionQuery, 'limit' | 'after'>) =>
  after === undefined ? Math.max(limit + 1, 200) : limit + 1;

/** An object of the collection, at the position of the entry it was made from. */
export interface Placed<T> {
  position: string;
  object: T;
}

export interface WalkedPage<T> {
  page: Placed<T>[];
  /** Where the next page starts, while the walk goes on: after the page's last object, or after the last entry read. */
  next: string | undefined;
  /** How many objects the filter selects, where the walk counted them to its end; otherwise undefined. */
  total: number | undefined;
  /** Every object made on the way, selected or not, for the audit event. */
  examined: T[];
  /** Those of them the filter selects: the page, those before it, and those counted after it. */
  selected: T[];
}

/**
 * The page of objects the query asks for: after its `after` position (the entries start there), or past
 * its first `offset` selected objects, reading on past the page to count what the filter selects (the
 * walk's first page, or one asked for by offset). Entries are made a batch at a time; `make` drops
 * those that are not of the collection (an organisation among the changed entities, a deleted role
 * record whose person still has the role), `batchSize` at a time. Past the offset, at most `budget`
 * entries are read.
 */
export async function walkPage<E extends { position: string }, T extends { sourcedId: string }>(
  entries: AsyncIterable<E>,
  query: Pick<CollectionQuery, 'limit' | 'offset' | 'after' | 'filter'>,
  make: (batch: E[]) => Promise<Placed<T>[]>,
  budget = WALK_BUDGET,
): Promise<WalkedPage<T>> {
  const counting = query.after === undefined;
  const size = batchSize(query);
  let skip = counting ? query.offset : 0;
  let read = 0;
  let lastRead: string | undefined;
  const kept: Placed<T>[] = [];
  const examined: T[] = [];
  const selected: T[] = [];
  const full = () => kept.length > query.limit;
  const take = async (batch: E[]) => {
    for (const placed of await make(batch)) {
      examined.push(placed.object);
      if (query.filter && !matches(placed.object, query.filter)) continue;
      selected.push(placed.object);
      if (skip > 0) skip -= 1;
      else if (!full()) kept.push(placed);
    }
    if (skip === 0) read += batch.length;
    lastRead = batch.at(-1)?.position;
  };
  let ended = true;
  let batch: E[] = [];
  for await (const entry of entries) {
    batch.push(entry);
    if (batch.length < size) continue;
    await take(batch);
    batch = [];
    if ((full() && !counting) || (skip === 0 && read >= budget)) {
      ended = false;
      break;
    }
  }
  if (ended && batch.length > 0) await take(batch);
  const page = kept.slice(0, query.limit);
  const more = full();
  const next = more ? page.at(-1)?.position : ended ? undefined : lastRead;
  const total = !ended
    ? undefined
    : counting
      ? selected.length
      : more
        ? undefined
        : query.offset + page.length;
  return { page, next, total, examined, selected };
}
