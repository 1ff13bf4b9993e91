// The native groups as a client registered with `schools` reads them over OneRoster (docs/sso.md,
// "School scoping"): the same reads as RosterReader's, each within the records those schools hold
// (shared/auth/school-scope.ts), found once per request and group. A page in sourcedId order is a page of
// those ids, its total their number; a walk and a whole read go through them alone; a record of
// another school is not there (404); a deletion is told when the schools held what was deleted.
import { heldThroughPeople, SchoolHoldings, type SchoolScope } from '../auth/school-scope';
import type { ListingRepository } from '../data/listing-repository';
import type { ListingName } from '../data/listings';
import type { Deletion } from '../data/pages';
import { pageOfIds } from '../data/pages-of-ids';
import type { SchoolsRead } from '../data/read-scope';
import type { RecordRepository } from '../data/record-repository';
import { idFields, type RecordGroup } from '../domain/groups';
import { heldBy } from '../records/school-deletions';
import type { Entity, GroupRecords } from '../schemas/records';
import type { CollectionQuery } from './collection-query';
import { bounded, type DeltaFeed, RosterReader, type WalkEntry } from './roster-reader';

type PeopleListing = Extract<ListingName, 'users' | 'students' | 'teachers'>;

export class SchoolRosterReader extends RosterReader {
  override readonly readsWholeTenant = false;
  private readonly holdings: SchoolHoldings;
  private people: Promise<Map<PeopleListing, string[]>> | undefined;

  constructor(
    records: RecordRepository,
    listings: ListingRepository,
    syncLagMs: number,
    private readonly schools: readonly string[],
  ) {
    super(records, listings, syncLagMs);
    this.holdings = new SchoolHoldings(schools, records);
  }

  private scope(group: RecordGroup): Promise<SchoolScope> {
    return this.holdings.of(group);
  }

  private async ids(group: RecordGroup): Promise<string[]> {
    return (await this.scope(group)).ids;
  }

  private async within(group: RecordGroup, ids: readonly string[]): Promise<string[]> {
    const readable = await this.holdings.held(group, ids);
    return ids.filter((id) => readable.has(id));
  }

  /** The persons of the schools who are users, students and teachers, in entity id order. */
  private listed(listing: PeopleListing): Promise<string[]> {
    this.people ??= (async () => {
      const { persons } = await this.scope('entities');
      // Read once with what found the schools' records (SchoolHoldings.rolesOf).
      const roles = await this.holdings.rolesOf([...persons]);
      const holding = (role?: string) =>
        [...roles]
          .filter(([, e]) => e.roles.some((r) => role === undefined || r.role === role))
          .map(([id]) => id)
          .sort();
      return new Map<PeopleListing, string[]>([
        ['users', holding()],
        ['students', holding('student')],
        ['teachers', holding('teacher')],
      ]);
    })();
    return this.people.then((lists) => lists.get(listing) ?? []);
  }

  /**
   * What decides whether the schools held a deletion of the group: their classes, and for a group held
   * through people, the persons of the schools (the entities' set).
   */
  private async read(group: RecordGroup): Promise<SchoolsRead> {
    const { classIds, persons } = await this.scope(heldThroughPeople.includes(group) ? 'entities' : group);
    return { schools: this.schools, classIds, persons };
  }

  override async readableOrganisations(orgs: readonly Entity[]): Promise<Entity[]> {
    return orgs.filter((org) => this.schools.includes(org.entity_id));
  }

  override async all<G extends RecordGroup>(group: G): Promise<GroupRecords[G][]> {
    const ids = await this.ids(group);
    bounded(ids.length, group);
    const found = await this.records.getMany(group, ids);
    return ids.flatMap((id) => found.get(id) ?? []);
  }

  override async page<G extends RecordGroup>(
    group: G,
    { limit, offset, after }: Pick<CollectionQuery, 'limit' | 'offset' | 'after'>,
  ): Promise<{ records: GroupRecords[G][]; total: number; next: string | undefined }> {
    const ids = await this.ids(group);
    const page = pageOfIds(
      ids,
      after === undefined ? { itemsPerPage: limit, skip: offset } : { itemsPerPage: limit, after },
    );
    const found = await this.records.getMany(group, page.ids);
    return {
      records: page.ids.flatMap((id) => found.get(id) ?? []),
      total: ids.length,
      next: page.hasMore ? page.ids.at(-1) : undefined,
    };
  }

  override async peoplePage(
    listing: PeopleListing,
    { limit, offset, after }: Pick<CollectionQuery, 'limit' | 'offset' | 'after'>,
  ): Promise<{ entityIds: string[]; total: number; next: string | undefined }> {
    const ids = await this.listed(listing);
    const page = pageOfIds(
      ids,
      after === undefined ? { itemsPerPage: limit, skip: offset } : { itemsPerPage: limit, after },
    );
    return { entityIds: page.ids, total: ids.length, next: page.hasMore ? page.ids.at(-1) : undefined };
  }

  override async *peopleInKeyOrder(
    listing: PeopleListing,
    after: string | undefined,
    batch: number,
  ): AsyncGenerator<WalkEntry> {
    yield* this.inBatches('entities', await this.listed(listing), after, batch);
  }

  override async *recordsInKeyOrder(
    group: RecordGroup,
    after: string | undefined,
    batch: number,
  ): AsyncGenerator<WalkEntry> {
    yield* this.inBatches(group, await this.ids(group), after, batch);
  }

  /** The records of these ids (in id order) after `after`, read `batch` at a time as the walk reaches them. */
  private async *inBatches(
    group: RecordGroup,
    ids: readonly string[],
    after: string | undefined,
    batch: number,
  ): AsyncGenerator<WalkEntry> {
    const rest = ids.filter((id) => after === undefined || id > after);
    for (let start = 0; start < rest.length; start += batch) {
      const slice = rest.slice(start, start + batch);
      const found = await this.records.getMany(group, slice);
      for (const id of slice) {
        const record = found.get(id);
        if (record) yield { kind: 'changed', group, position: id, record };
      }
    }
  }

  override async *delta(
    feeds: readonly DeltaFeed[],
    window: { since: string; inclusive: boolean },
    after: string | undefined,
    batch: number,
  ): AsyncGenerator<WalkEntry> {
    const tests = new Map(
      await Promise.all(
        feeds.map(async ({ kind, group }) => [`${kind}#${group}`, await this.heldTest(kind, group)] as const),
      ),
    );
    for await (const entry of super.delta(feeds, window, after, batch)) {
      if (tests.get(`${entry.kind}#${entry.group}`)?.(entry)) yield entry;
    }
  }

  /** Whether an entry of a feed is of what the schools hold: a record they hold now, or a deletion they held. */
  private async heldTest(
    kind: DeltaFeed['kind'],
    group: RecordGroup,
  ): Promise<(entry: WalkEntry) => boolean> {
    if (kind === 'changed') {
      const ids = new Set(await this.ids(group));
      return (entry) => entry.kind === 'changed' && ids.has(idOf(group, entry.record));
    }
    const read = await this.read(group);
    const classes = new Set(read.classIds);
    return (entry) => entry.kind === 'deleted' && heldBy(group, entry.deletion, read, classes, new Map());
  }

  override async changedSince<G extends RecordGroup>(
    group: G,
    since: string,
    inclusive: boolean,
  ): Promise<GroupRecords[G][]> {
    const readable = new Set(await this.ids(group));
    return (await super.changedSince(group, since, inclusive)).filter((record) =>
      readable.has(idOf(group, record)),
    );
  }

  override async deletedSince<G extends RecordGroup>(
    group: G,
    since: string,
    inclusive: boolean,
  ): Promise<Deletion<G>[]> {
    const read = await this.read(group);
    const classes = new Set(read.classIds);
    return (await super.deletedSince(group, since, inclusive)).filter((d) =>
      heldBy(group, d, read, classes, new Map()),
    );
  }

  override async get<G extends RecordGroup>(group: G, id: string) {
    return (await this.within(group, [id])).length > 0 ? super.get(group, id) : undefined;
  }

  override async getMany<G extends RecordGroup>(group: G, ids: readonly string[]) {
    return super.getMany(group, await this.within(group, ids));
  }

  override async entitiesInOrder(ids: readonly string[]): Promise<Entity[]> {
    return super.entitiesInOrder(await this.within('entities', ids));
  }

  override async classIdsOfSchool(schoolId: string): Promise<string[]> {
    return this.schools.includes(schoolId) ? super.classIdsOfSchool(schoolId) : [];
  }

  override async classIdsOf(named: 'course_id' | 'term_ids', id: string): Promise<string[]> {
    return this.within('classes', await super.classIdsOf(named, id));
  }

  /** A school's courses that the schools' classes give: those it holds, of any school it may name. */
  override async courseIdsOfSchool(schoolId: string): Promise<string[]> {
    return this.within('courses', await super.courseIdsOfSchool(schoolId));
  }

  override async lineItemIdsOfClass(classId: string): Promise<string[]> {
    return (await this.within('classes', [classId])).length > 0 ? super.lineItemIdsOfClass(classId) : [];
  }

  override async resultsOfClass(classId: string, studentIds?: readonly string[]) {
    return (await this.within('classes', [classId])).length > 0
      ? super.resultsOfClass(classId, studentIds)
      : [];
  }

  override async enrollmentListsOfClasses(classIds: readonly string[]) {
    return super.enrollmentListsOfClasses(await this.within('classes', classIds));
  }

  /** A person's enrollment lists, with only their enrollments in the schools' classes. */
  override async enrollmentListsOf(entityIds: readonly string[]) {
    const lists = await super.enrollmentListsOf(await this.within('entities', entityIds));
    // An enrollment is the schools' when its class is (a person's entry names the class).
    const classes = await this.holdings.held('classes', [
      ...new Set([...lists.values()].flatMap((list) => list.entries.map((e) => e.otherId))),
    ]);
    return new Map(
      [...lists].map(([id, list]) => [
        id,
        { ...list, entries: list.entries.filter((e) => classes.has(e.otherId)) },
      ]),
    );
  }

  override async tutorsOf(studentIds: readonly string[]) {
    const caring = await super.tutorsOf(await this.within('students', studentIds));
    const readable = await this.holdings.held('tutors', [...new Set([...caring.values()].flat())]);
    return new Map([...caring].map(([id, ids]) => [id, ids.filter((t) => readable.has(t))]));
  }

  override async enrollmentsOfClass(classId: string) {
    return (await this.within('classes', [classId])).length > 0 ? super.enrollmentsOfClass(classId) : [];
  }

  override async enrollmentsOfPerson(entityId: string) {
    const enrollments = await super.enrollmentsOfPerson(entityId);
    const classes = await this.holdings.held('classes', [...new Set(enrollments.map((e) => e.class_id))]);
    return enrollments.filter((e) => classes.has(e.class_id));
  }
}

const idOf = (group: RecordGroup, record: object) =>
  (record as Record<string, unknown>)[idFields[group]] as string;
