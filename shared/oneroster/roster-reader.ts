// How the OneRoster routes read the native groups: a whole group, page by page from its partition, or
// only the records changed since a time, from the `changes` index (what `dateLastModified>` asks for),
// up to the sync lag behind the clock as the native changes feed. A whole-group read is bounded: a group
// larger than MAX_WHOLE_GROUP is refused (docs/oneroster.md).
import type { RecordRepository } from '../data/record-repository';
import { InvalidInputError } from '../domain/errors';
import { idFields, type RecordGroup } from '../domain/groups';
import { quote } from '../http/quote';
import type { GroupRecords } from '../schemas/records';

/** The most records of one group a OneRoster request reads whole (about 30 MB of records at most). */
export const MAX_WHOLE_GROUP = 20_000;
const PAGE = 500;

const idOf = (group: RecordGroup, record: object) =>
  (record as Record<string, unknown>)[idFields[group]] as string;

export class RosterReader {
  constructor(
    private readonly records: RecordRepository,
    /**
     * How far behind the clock a changes read stops (the service's SYNC_LAG_MS): a write stamped just
     * before it commits is then never missed by a client that resumes from the newest dateLastModified.
     */
    private readonly syncLagMs: number,
  ) {}

  /** Every record of the group, in id order; refused when the group is larger than the bound. */
  async all<G extends RecordGroup>(group: G): Promise<GroupRecords[G][]> {
    const count = await this.records.count(group);
    if (count > MAX_WHOLE_GROUP) {
      throw new InvalidInputError(
        `This request reads all ${count} ${group}, more than the ${MAX_WHOLE_GROUP} a request may read; ` +
          "narrow it with filter=dateLastModified>'<timestamp>'.",
      );
    }
    const all: GroupRecords[G][] = [];
    let after: string | undefined;
    for (;;) {
      const page = await this.records.listPage(group, { itemsPerPage: PAGE, after });
      all.push(...page.items);
      const last = page.items.at(-1);
      if (!page.hasMore || !last) return all;
      after = idOf(group, last);
    }
  }

  /**
   * The records changed after `since` (or at it, when `inclusive`) and up to the sync lag behind the
   * clock, each once in its newest version; none when `since` is later than that.
   */
  async changedSince<G extends RecordGroup>(
    group: G,
    since: string,
    inclusive: boolean,
  ): Promise<GroupRecords[G][]> {
    const from = Date.parse(since) - (inclusive ? 1 : 0);
    const until = Date.now() - this.syncLagMs;
    if (!(from < until)) return [];
    return this.changedWithin(group, since, new Date(from).toISOString(), new Date(until).toISOString());
  }

  private async changedWithin<G extends RecordGroup>(
    group: G,
    since: string,
    from: string,
    until: string,
  ): Promise<GroupRecords[G][]> {
    const found = new Map<string, GroupRecords[G]>();
    let after: string | undefined;
    for (;;) {
      const page = await this.records.changesPage(group, { since: from, until, itemsPerPage: PAGE, after });
      for (const { value } of page.items) found.set(idOf(group, value), value);
      const last = page.items.at(-1);
      if (!page.hasMore || !last) break;
      after = last.position;
      if (found.size > MAX_WHOLE_GROUP) {
        throw new InvalidInputError(
          `More than ${MAX_WHOLE_GROUP} ${group} changed since ${quote(since)}; ask for a later time.`,
        );
      }
    }
    return [...found.values()];
  }

  get<G extends RecordGroup>(group: G, id: string) {
    return this.records.get(group, id);
  }

  getMany<G extends RecordGroup>(group: G, ids: readonly string[]) {
    return this.records.getMany(group, ids);
  }

  /** A class's enrollments, and a person's, read by id (the model keeps their ids on the class and the entity). */
  enrollmentsOfClass(classId: string) {
    return this.records.enrollmentsOfClass(classId);
  }

  enrollmentsOfPerson(entityId: string) {
    return this.records.enrollmentsOfPerson(entityId);
  }
}
