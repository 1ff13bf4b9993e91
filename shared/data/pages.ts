// The shapes of what the repository reads a page at a time: a list page by id, and a window of
// time-ordered entries (changes and deletions), with the queries that ask for them; and from which end
// a skip walks to its page.
import type { RecordGroup } from '../domain/groups';
import type { Tombstone } from './tombstones';

export interface PageQuery {
  itemsPerPage: number;
  /** Start after this id (a cursor). */
  after?: string | undefined;
  /** Or skip this many records first (a `page=N` jump). */
  skip?: number | undefined;
  /** With `skip`: how many records the list holds (its counter), so the skip walks from the nearer end. */
  size?: number | undefined;
}

/** How a skip finds the key its page starts after: so many keys read from the front, or from the back. */
export interface OffsetWalk {
  forward: boolean;
  steps: number;
}

/**
 * How to find the `skip`-th key (1-based) of a range of `size` keys in key order: reading `skip` keys from
 * the front, or `size - skip + 1` from the back where that is fewer, so no skip reads more than half the
 * range; from the front where the size is not known. None past the end: the page there is empty.
 */
export function offsetWalk(skip: number, size: number | undefined): OffsetWalk | undefined {
  if (size === undefined) return { forward: true, steps: skip };
  if (skip > size) return undefined;
  const fromBack = size - skip + 1;
  return fromBack < skip ? { forward: false, steps: fromBack } : { forward: true, steps: skip };
}

export interface RecordPage<T> {
  items: T[];
  /** Whether records follow the last one returned. */
  hasMore: boolean;
  /**
   * The id the read stopped after when it stopped short of a full page (a filtered list reads a bounded
   * number of records a request): the next page starts after it, not after the last record returned.
   */
  readTo?: string;
  /**
   * The records a filtered read found past the page: they decide `hasMore`, so the audit event of the
   * answer names them too.
   */
  beyond?: T[];
}

/** A window of time-ordered entries: strictly after `since`, up to and including `until`. */
export interface TimeWindowQuery {
  since: string;
  until: string;
  itemsPerPage: number;
  /** Continue after this time-ordered key (`<timestamp>#<id>`). */
  after?: string | undefined;
}

export interface TimedPage<T> {
  items: { value: T; position: string }[];
  hasMore: boolean;
  /** The position of the last entry the page read, where a record gone since left no item: the next page starts after it. */
  through?: string | undefined;
}

export interface Deletion<G extends RecordGroup = RecordGroup> {
  id: string;
  deleted_at: string;
  /** What the deletion kept of the record (tombstones.ts); nothing for one recorded before it kept any. */
  kept: Tombstone<G>;
}
