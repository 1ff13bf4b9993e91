// Pages of a known, small set of records, cut the way the Queries cut a group's list and changes feed:
// for readers who may read only some records, whose pages are read by id instead of from the partition.
import { afterTime } from './keys';
import type { PageQuery, TimedPage, TimeWindowQuery } from './pages';

/** One page of ids sorted in id order, and whether ids follow it. */
export function pageOfIds(ids: readonly string[], query: PageQuery): { ids: string[]; hasMore: boolean } {
  const { after, itemsPerPage } = query;
  const found = after === undefined ? (query.skip ?? 0) : ids.findIndex((id) => id > after);
  const start = found < 0 ? ids.length : found;
  return { ids: ids.slice(start, start + itemsPerPage), hasMore: start + itemsPerPage < ids.length };
}

/**
 * One page of time-ordered entries (positions `<timestamp>#<id>`) in the window (since, until], after the
 * query's position, in position order: the `changes` index's key condition, applied to entries read directly.
 */
export function pageOfWindow<T>(entries: TimedPage<T>['items'], query: TimeWindowQuery): TimedPage<T> {
  const from = afterTime(query.since);
  const until = afterTime(query.until);
  const inWindow = entries
    .filter(
      ({ position }) =>
        position > from && position <= until && (query.after === undefined || position > query.after),
    )
    .sort((a, b) => (a.position < b.position ? -1 : a.position > b.position ? 1 : 0));
  return { items: inWindow.slice(0, query.itemsPerPage), hasMore: inWindow.length > query.itemsPerPage };
}
