// How the OneRoster routes read the native groups: a page of a group or listing by key, a walk of what
// changed and was deleted since a time in change order (the `changes` index and the deletion feeds, what
// `dateLastModified>` asks for), up to the sync lag behind the clock as the native changes feed; or, for
// the reads that sort or filter otherwise, a whole group, bounded: a group larger than MAX_WHOLE_GROUP
// is refused (docs/oneroster.md).
import { afterTime } from '../data/keys';
import type { ListingRepository } from '../data/listing-repository';
import { type ListingName, ofSchool, type StudentWorkEntry } from '../data/listings';
import type { Deletion } from '../data/pages';
import type { RecordRepository } from '../data/record-repository';
import { InvalidInputError } from '../domain/errors';
import { idFields, type RecordGroup } from '../domain/groups';
import { quote } from '../http/quote';
import type { Entity, GroupRecords } from '../schemas/records';
import type { CollectionQuery } from './collection-query';

/** The most records of one group a OneRoster request reads whole (about 30 MB of records at most). */
export const MAX_WHOLE_GROUP = 20_000;
const PAGE = 500;

/** Refuses a read of more than MAX_WHOLE_GROUP records at once, saying of what. */
export function bounded(count: number, what: string) {
  if (count > MAX_WHOLE_GROUP) {
    throw new InvalidInputError(
      `This request reads all ${count} ${what}, more than the ${MAX_WHOLE_GROUP} a request may read; ` +
        'read it without filter or sort, a page at a time.',
    );
  }
}

/** A native feed a delta walk reads: a group's records changed in its window, or the group's deletions. */
export interface DeltaFeed {
  kind: 'changed' | 'deleted';
  group: RecordGroup;
}

/**
 * An entry of a walk at its position: in a delta, `<time>#<id>`, a record as it is now or a deletion; in
 * sourcedId order, the record's id.
 */
export type WalkEntry = { group: RecordGroup; position: string } & (
  | { kind: 'changed'; record: GroupRecords[RecordGroup] }
  | { kind: 'deleted'; deletion: Deletion }
);

/** A record's id, by its group's id field. */
export const idOf = (group: RecordGroup, record: object) =>
  (record as Record<string, unknown>)[idFields[group]] as string;

export class RosterReader {
  constructor(
    protected readonly records: RecordRepository,
    protected readonly listings: ListingRepository,
    /**
     * How far behind the clock a changes read stops (the service's SYNC_LAG_MS): a write stamped just
     * before it commits is then never missed by a client that resumes from the newest dateLastModified.
     */
    protected readonly syncLagMs: number,
  ) {}

  /** Whether what it reads is the whole tenant's (not a school-scoped client's: SchoolRosterReader). */
  readonly readsWholeTenant: boolean = true;

  /** Of these organisations, those the request may read: all of them here (see SchoolRosterReader). */
  async readableOrganisations(orgs: readonly Entity[]): Promise<Entity[]> {
    return [...orgs];
  }

  /** Every record of the group, in id order; refused when the group is larger than the bound. */
  async all<G extends RecordGroup>(group: G): Promise<GroupRecords[G][]> {
    const count = await this.records.count(group);
    if (count > MAX_WHOLE_GROUP) {
      throw new InvalidInputError(
        `This request reads all ${count} ${group}, more than the ${MAX_WHOLE_GROUP} a request may read; ` +
          'read it in sourcedId order (no sort, or sort=sourcedId ascending), or a dateLastModified> delta ' +
          'in change order, which are read a page at a time.',
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
   * One page of the group in id order with the group's count (its counter): the records after `after`,
   * or past the first `offset` (found in the keys-only index from the nearer end, about 40 keys a read
   * unit); `next` is the
   * id the following page starts after, when one follows.
   */
  async page<G extends RecordGroup>(
    group: G,
    { limit, offset, after }: Pick<CollectionQuery, 'limit' | 'offset' | 'after'>,
  ): Promise<{ records: GroupRecords[G][]; total: number; next: string | undefined }> {
    const counting = this.records.count(group);
    // An offset is walked from the nearer end, which the count tells: that walk waits for it.
    const size = after === undefined && offset > 0 ? await counting : undefined;
    const [page, total] = await Promise.all([
      this.records.listPage(
        group,
        after === undefined ? { itemsPerPage: limit, skip: offset, size } : { itemsPerPage: limit, after },
      ),
      counting,
    ]);
    const last = page.items.at(-1);
    return { records: page.items, total, next: page.hasMore && last ? idOf(group, last) : undefined };
  }

  /**
   * A page of a listing of people in sourcedId order (their entity ids) with how many the listing holds:
   * after `after`, or past the first `offset` (read from the listing's keys, from the nearer end). A students' or teachers'
   * listing holds one entry per role record, counted by its group's counter; the users are the entities
   * but the organisations and the persons without a role, two listings that stay small, counted from
   * their keys.
   */
  async peoplePage(
    listing: Extract<ListingName, 'users' | 'students' | 'teachers'>,
    { limit, offset, after }: Pick<CollectionQuery, 'limit' | 'offset' | 'after'>,
  ): Promise<{ entityIds: string[]; total: number; next: string | undefined }> {
    const skipping = after === undefined && offset > 0;
    const counting = this.peopleCount(listing);
    // An offset is walked from the nearer end, which the count tells: that walk waits for it.
    const start = skipping ? await this.listings.sortAt(listing, offset, await counting) : after;
    if (skipping && start === undefined) return { entityIds: [], total: await counting, next: undefined };
    const [page, total] = await Promise.all([this.listings.page(listing, { limit, after: start }), counting]);
    const last = page.items.at(-1);
    return {
      // A person with two role records of one kind is listed twice, next to each other: once on a page.
      entityIds: [...new Set(page.items.map((i) => i.sort))],
      total,
      next: page.hasMore && last ? last.sort : undefined,
    };
  }

  private async peopleCount(listing: 'users' | 'students' | 'teachers'): Promise<number> {
    if (listing !== 'users') return this.records.count(listing);
    const [entities, orgs, roleless] = await Promise.all([
      this.records.count('entities'),
      this.listings.count('orgs'),
      this.listings.count('roleless-people'),
    ]);
    return entities - orgs - roleless;
  }

  /** The tenant's organisations, in id order, from their listing (a few, whatever the number of people). */
  async organisations(): Promise<Entity[]> {
    const ids = (await this.listings.all('orgs')).map((i) => i.sort);
    const found = await this.records.getMany('entities', ids);
    return ids.flatMap((id) => found.get(id) ?? []);
  }

  /** The ids of a school's classes, in id order, from the classes' listing: what the school has, nothing else. */
  classIdsOfSchool(schoolId: string): Promise<string[]> {
    return this.idsOfSchool('classes', schoolId);
  }

  /** The ids of a course's classes, or a term's, in id order, from those filed under it. */
  classIdsOf(named: 'course_id' | 'term_ids', id: string): Promise<string[]> {
    return this.records.idsFiledUnder('classes', named, id);
  }

  /** The ids of the courses a school offers (their `org`), in id order, from the courses' listing. */
  courseIdsOfSchool(schoolId: string): Promise<string[]> {
    return this.idsOfSchool('courses', schoolId);
  }

  private async idsOfSchool(listing: 'classes' | 'courses', schoolId: string): Promise<string[]> {
    const prefix = ofSchool(schoolId);
    return (await this.listings.all(listing, prefix)).map((i) => i.sort.slice(prefix.length));
  }

  /** The ids of a class's line items, in id order: its range of the line items' listing. */
  async lineItemIdsOfClass(classId: string): Promise<string[]> {
    return (await this.records.lineItemsOfClasses([classId])).get(classId) ?? [];
  }

  /** The ids of a class's own score scales, in id order: its range of the scales' listing. */
  scoreScaleIdsOfClass(classId: string): Promise<string[]> {
    return this.records.scoreScalesOfClass(classId);
  }

  /** Score scales by id, whoever reads: every school shares them, as their native group says (`schoolWide`). */
  scoreScales(ids: readonly string[]) {
    return this.records.getMany('score_scales', ids);
  }

  /**
   * A class's results, or of some students of it, with the line item each is for: its range of the
   * results' listing (its students times its line items), or each student's part of it.
   */
  async resultsOfClass(classId: string, studentIds?: readonly string[]): Promise<StudentWorkEntry[]> {
    const ranges = studentIds ? studentIds.map((studentId) => ({ classId, studentId })) : [{ classId }];
    return this.records.studentWorkOfClasses('results', ranges);
  }

  /** The person entity of each of these student records, by student id. */
  usersOfStudents(studentIds: readonly string[]) {
    return this.records.entityIdsOf('students', studentIds);
  }

  /** The enrollment lists of classes (role and person of each), by class id. */
  enrollmentListsOfClasses(classIds: readonly string[]) {
    return this.records.enrollmentLists('classes', classIds);
  }

  /** Entities by id, in the order of `ids`. */
  async entitiesInOrder(ids: readonly string[]): Promise<Entity[]> {
    const found = await this.records.getMany('entities', ids);
    return ids.flatMap((id) => found.get(id) ?? []);
  }

  /**
   * The entries of these feeds after `since` (or at it, when `inclusive`) and up to the sync lag behind
   * the clock, merged in change order (time, then id), starting after the position `after`: each feed
   * is read `batch` entries at a time, as the walk reaches them, so a walk that stops after a page has
   * read about a page of each feed whatever the district's size.
   */
  async *delta(
    feeds: readonly DeltaFeed[],
    window: { since: string; inclusive: boolean },
    after: string | undefined,
    batch: number,
  ): AsyncGenerator<WalkEntry> {
    const from = new Date(Date.parse(window.since) - (window.inclusive ? 1 : 0)).toISOString();
    const until = new Date(Date.now() - this.syncLagMs).toISOString();
    if (!(from < until) || (after !== undefined && after >= afterTime(until))) return;
    // A position before the window starts it from the beginning: DynamoDB takes no start key outside it.
    const start = after !== undefined && after > afterTime(from) ? after : undefined;
    const query = { since: from, until, itemsPerPage: batch };
    const states = feeds.map((feed) => ({ feed, buffer: [] as WalkEntry[], after: start, done: false }));
    const refill = async (state: (typeof states)[number]) => {
      while (state.buffer.length === 0 && !state.done) {
        const { kind, group } = state.feed;
        const page =
          kind === 'changed'
            ? await this.records.changesPage(group, { ...query, after: state.after })
            : await this.records.deletionsPage(group, { ...query, after: state.after });
        state.buffer = page.items.map(({ value, position }) =>
          kind === 'changed'
            ? { kind, group, position, record: value as GroupRecords[RecordGroup] }
            : { kind, group, position, deletion: value as Deletion },
        );
        state.after = page.through ?? page.items.at(-1)?.position ?? state.after;
        state.done = !page.hasMore;
      }
    };
    for (;;) {
      await Promise.all(states.map(refill));
      let first: (typeof states)[number] | undefined;
      for (const state of states) {
        const head = state.buffer[0];
        if (head && (!first || head.position < (first.buffer[0] as WalkEntry).position)) first = state;
      }
      const entry = first?.buffer.shift();
      if (!entry) return;
      yield entry;
    }
  }

  /** A group's records in id order after the id `after`, as entries of a walk, read `batch` at a time. */
  async *recordsInKeyOrder(
    group: RecordGroup,
    after: string | undefined,
    batch: number,
  ): AsyncGenerator<WalkEntry> {
    let start = after;
    for (;;) {
      const page = await this.records.listPage(group, { itemsPerPage: batch, after: start });
      for (const record of page.items) {
        yield { kind: 'changed', group, position: idOf(group, record), record };
      }
      start = page.items.at(-1) ? idOf(group, page.items.at(-1) as object) : undefined;
      if (!page.hasMore || start === undefined) return;
    }
  }

  /**
   * The people of a listing in sourcedId order after the entity id `after`, each once (a person with two
   * role records of one kind is listed twice), their entities read by id `batch` at a time.
   */
  async *peopleInKeyOrder(
    listing: Extract<ListingName, 'users' | 'students' | 'teachers'>,
    after: string | undefined,
    batch: number,
  ): AsyncGenerator<WalkEntry> {
    let start = after;
    for (;;) {
      const page = await this.listings.page(listing, { limit: batch, after: start });
      const ids = [...new Set(page.items.map((i) => i.sort))];
      const found = await this.records.getMany('entities', ids);
      for (const id of ids) {
        const record = found.get(id);
        if (record) yield { kind: 'changed', group: 'entities', position: id, record };
      }
      start = page.items.at(-1)?.sort ?? start;
      if (!page.hasMore) return;
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

  /**
   * The group's deletions after `since` (or at it, when `inclusive`) and up to the sync lag behind the
   * clock, from its deletion feed (kept for the deletion retention); refused past MAX_WHOLE_GROUP.
   */
  async deletedSince<G extends RecordGroup>(
    group: G,
    since: string,
    inclusive: boolean,
  ): Promise<Deletion<G>[]> {
    const from = Date.parse(since) - (inclusive ? 1 : 0);
    const until = Date.now() - this.syncLagMs;
    if (!(from < until)) return [];
    const window = {
      since: new Date(from).toISOString(),
      until: new Date(until).toISOString(),
      itemsPerPage: PAGE,
    };
    const found: Deletion<G>[] = [];
    for await (const deletion of this.records.deletionsWithin(group, window)) {
      if (found.length === MAX_WHOLE_GROUP) {
        throw new InvalidInputError(
          `More than ${MAX_WHOLE_GROUP} ${group} were deleted since ${quote(since)}; ask for a later time.`,
        );
      }
      found.push(deletion);
    }
    return found;
  }

  get<G extends RecordGroup>(group: G, id: string) {
    return this.records.get(group, id);
  }

  getMany<G extends RecordGroup>(group: G, ids: readonly string[]) {
    return this.records.getMany(group, ids);
  }

  /** The school of each of these classes, by class id. */
  schoolsOfClasses(classIds: readonly string[]) {
    return this.records.schoolsOfClasses(classIds);
  }

  /** Each student's tutors, by student id. */
  tutorsOf(studentIds: readonly string[]) {
    return this.records.tutorsOf(studentIds);
  }

  /** The enrollment lists of person entities (role and class of each), by entity id. */
  enrollmentListsOf(entityIds: readonly string[]) {
    return this.records.enrollmentLists('entities', entityIds);
  }

  /** A class's enrollments, and a person's, read by id (the model keeps their ids on the class and the entity). */
  enrollmentsOfClass(classId: string) {
    return this.records.enrollmentsOfClass(classId);
  }

  enrollmentsOfPerson(entityId: string) {
    return this.records.enrollmentsOfPerson(entityId);
  }
}
