// What of a record group a request may read, resolved once per request (shared/auth/reach.ts) and handed
// to the repository, which reads the whole group's partition or just the records of these ids.

export type ReadScope =
  | { all: true }
  | {
      all: false;
      /** The ids the caller may read, in id order (the order of a list). */
      ids: string[];
      /**
       * When the set last changed, as far as can be known: the newest `updated_at` of the records it is
       * read from. Whatever adds an id to the set or takes one out changes one of those records in the
       * same transaction. None when the caller's roles reach nothing of the group.
       */
      changedAt: string | undefined;
      /**
       * Per id, when it became readable as far as can be known, where that is later than the record's own
       * last change and not `changedAt` (a school-scoped client's records: shared/auth/school-scope.ts).
       */
      since?: ReadonlyMap<string, string>;
      /** For a client registered with schools: what its deletions feed is told from. */
      schools?: SchoolsRead;
    };

/** The schools a client reads, their classes now, and the persons enrolled there or caring for their students. */
export interface SchoolsRead {
  schools: readonly string[];
  classIds: readonly string[];
  persons: ReadonlySet<string>;
}

export const inScope = (scope: ReadScope, id: string) => scope.all || scope.ids.includes(id);
