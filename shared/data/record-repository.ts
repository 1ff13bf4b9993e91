// Reads records (shared/data/seed-records.ts inserts them in bulk). Lists are Queries on the group's
// partition in id order; a page's read cost depends only on its size. Counts come from counter items that
// every write changes in the same transaction as the records it touches.
import {
  BatchGetCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  paginateQuery,
  QueryCommand,
} from '@aws-sdk/lib-dynamodb';
import { idFields, type RecordGroup, type RoleGroup, recordGroups } from '../domain/groups';
import { recordFields } from '../domain/record-fields';
import type { GroupRecords } from '../schemas/records';
import { type EnrollmentEntry, entriesOf } from './enrollment-entries';
import { afterTime, type Key, keys } from './keys';
import { ListingRepository } from './listing-repository';
import {
  assessmentResultsOfStudent,
  lineItemsOfClass,
  ofSchool,
  ofStudentWork,
  type StudentWork,
  type StudentWorkEntry,
  scoreScalesOfClass,
  studentWorkOfClass,
} from './listings';
import {
  type Deletion,
  offsetWalk,
  type PageQuery,
  type RecordPage,
  type TimedPage,
  type TimeWindowQuery,
} from './pages';
import { pageOfIds, pageOfWindow } from './pages-of-ids';
import type { ReadScope } from './read-scope';
import {
  type Item,
  internal,
  projectionOf,
  recordProjection,
  type StoredRecord,
  storedRecordProjection,
  TREE_VERSION,
  toRecord,
  toStoredRecord,
} from './record-items';
import { tableDesign } from './table';
import type { Tombstone } from './tombstones';

/** DynamoDB reads at most 100 keys in one BatchGetItem. */
const MAX_KEYS_PER_BATCH_GET = 100;

/** BatchGetItem requests one read sends at once. */
const BATCH_GETS_AT_ONCE = 4;
/**
 * What one request of a list filtered by `ative` alone reads at most: 1,000 records (two pages of the
 * largest size) in at most 8 Queries (each reads at most 1 MB), well inside the functions' 10 s.
 */
export const FILTERED_READ = { records: 1_000, queries: 8 } as const;

/** What a school's class says of the records tied to the school through it (shared/auth/school-scope.ts). */
export interface ClassFacts {
  courseId: string;
  termIds: string[];
  updatedAt: string;
  /** Its enrollment list and when that last changed, when asked for. */
  entries: EnrollmentEntry[];
  enrolledAt: string | undefined;
}

/**
 * The key condition of a Query of a partition's items after the sort key `after` (or from its start), in
 * key order or, with `forward` false, from the back (before `after`). A condition on the sort key rather
 * than an ExclusiveStartKey: DynamoDB reads from the key either way, but DynamoDB Local walks the
 * partition from its start to an ExclusiveStartKey, so a deep page of 80,000 enrollments took 26 ms there
 * against 3.5 ms for the first (docs/benchmarks.md, section 8).
 */
function keysAfter(partition: string, after: string | undefined, forward = true) {
  return after === undefined
    ? { KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': partition } }
    : {
        KeyConditionExpression: `pk = :pk AND sk ${forward ? '>' : '<'} :after`,
        ExpressionAttributeValues: { ':pk': partition, ':after': after },
      };
}

export class RecordRepository {
  private readonly listings: ListingRepository;

  constructor(
    private readonly db: DynamoDBDocumentClient,
    readonly tableName: string,
  ) {
    this.listings = new ListingRepository(db, tableName);
  }

  async get<G extends RecordGroup>(group: G, id: string): Promise<StoredRecord<G> | undefined> {
    const { Item } = await this.db.send(
      new GetCommand({
        TableName: this.tableName,
        Key: keys.record(group, id),
        ConsistentRead: true,
        ...storedRecordProjection(group),
      }),
    );
    return Item ? toStoredRecord(group, Item) : undefined;
  }

  /** The stored item, internal attributes included, for writers that must carry them over. */
  async getItem(group: RecordGroup, id: string): Promise<Item | undefined> {
    const { Item } = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: keys.record(group, id), ConsistentRead: true }),
    );
    return Item;
  }

  /**
   * The enrollment entries a class (`classes`) or person entity (`entities`) lists: role, the other
   * side's id and the enrollment's id, read from that one item, without reading the enrollments.
   */
  async enrollmentEntries(group: 'classes' | 'entities', id: string): Promise<EnrollmentEntry[]> {
    const { Item } = await this.db.send(
      new GetCommand({
        TableName: this.tableName,
        Key: keys.record(group, id),
        ProjectionExpression: '#e',
        ExpressionAttributeNames: { '#e': internal.enrollments },
        ConsistentRead: true,
      }),
    );
    return entriesOf(Item?.[internal.enrollments]);
  }

  /**
   * The enrollment lists of many classes or persons, by id, with when each last changed: one BatchGet
   * of just those attributes (a hundred ids a request).
   */
  async enrollmentLists(
    group: 'classes' | 'entities',
    ids: readonly string[],
  ): Promise<Map<string, { entries: EnrollmentEntry[]; changedAt: string | undefined }>> {
    const items = await this.getManyItems(group, ids, internal.enrollments, internal.enrolledAt);
    return new Map(
      [...items].map(([id, item]) => [
        id,
        {
          entries: entriesOf(item[internal.enrollments]),
          changedAt: item[internal.enrolledAt] as string | undefined,
        },
      ]),
    );
  }

  /** The roles of these entities, with when each last changed: a BatchGet of just those attributes. */
  async rolesOfEntities(
    ids: readonly string[],
  ): Promise<Map<string, Pick<GroupRecords['entities'], 'roles' | 'updated_at'>>> {
    const items = await this.getManyItems('entities', ids, 'roles', 'updated_at');
    return new Map(
      [...items].map(([id, item]) => [
        id,
        {
          roles: (item.roles ?? []) as GroupRecords['entities']['roles'],
          updated_at: String(item.updated_at),
        },
      ]),
    );
  }

  /**
   * The school of each of these classes, by class id: a BatchGet of just that attribute, so the class's
   * enrollment list (kilobytes on a large class) does not travel.
   */
  async schoolsOfClasses(classIds: readonly string[]): Promise<Map<string, string>> {
    const items = await this.getManyItems('classes', classIds, 'school_id');
    return new Map([...items].map(([id, item]) => [id, String(item.school_id)]));
  }

  /** The person entity of each of these role records, by record id: a BatchGet of just `entity_id`. */
  async entityIdsOf(group: RoleGroup, ids: readonly string[]): Promise<Map<string, string>> {
    const items = await this.getManyItems(group, ids, 'entity_id');
    return new Map([...items].map(([id, item]) => [id, String(item.entity_id)]));
  }

  /** Which of these entity ids are organisations: a BatchGet of just their type. */
  async organisations(ids: readonly string[]): Promise<ReadonlySet<string>> {
    const items = await this.getManyItems('entities', ids, 'entity_type');
    return new Set([...items].filter(([, item]) => item.entity_type === 'organisation').map(([id]) => id));
  }

  /**
   * The id of the school year that holds a day (the latest to start, where two overlap), or undefined:
   * one filtered Query of the academic sessions, the tenant's calendar (a few a year, whatever its size).
   */
  async schoolYearOn(day: string): Promise<string | undefined> {
    let latest: { id: string; start: string } | undefined;
    let startKey: Key | undefined;
    do {
      const page = await this.db.send(
        new QueryCommand({
          TableName: this.tableName,
          KeyConditionExpression: 'pk = :pk',
          FilterExpression: '#type = :type AND start_date <= :day AND end_date >= :day',
          ProjectionExpression: 'academic_session_id, start_date',
          ExpressionAttributeNames: { '#type': 'type' },
          ExpressionAttributeValues: {
            ':pk': keys.recordPartition('academic_sessions'),
            ':type': 'school_year',
            ':day': day,
          },
          ExclusiveStartKey: startKey,
        }),
      );
      for (const item of page.Items ?? []) {
        const start = String(item.start_date);
        if (!latest || start > latest.start) latest = { id: String(item.academic_session_id), start };
      }
      startKey = page.LastEvaluatedKey as Key | undefined;
    } while (startKey);
    return latest?.id;
  }

  /**
   * The ids of the records of a group filed under the record `namedId` through its listed reference
   * `field` (a course's classes, a term's), in id order: one Query of their keys, whatever the group's size.
   */
  async idsFiledUnder(group: RecordGroup, field: string, namedId: string): Promise<string[]> {
    const prefix = keys.referrer(group, field, namedId, '').sk;
    const ids: string[] = [];
    const pages = paginateQuery(
      { client: this.db },
      {
        TableName: this.tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': keys.referrerPartition(group), ':prefix': prefix },
        ProjectionExpression: 'sk',
        ConsistentRead: true,
      },
    );
    for await (const page of pages)
      ids.push(...(page.Items ?? []).map((item) => String(item.sk).slice(prefix.length)));
    return ids;
  }

  /** The ids of the classes of these schools, in id order: each school's range of the classes' listing. */
  async classIdsOfSchools(schoolIds: readonly string[]): Promise<string[]> {
    const ranges = await Promise.all(
      schoolIds.map(async (schoolId) => {
        const prefix = ofSchool(schoolId);
        return (await this.listings.all('classes', prefix)).map((i) => i.sort.slice(prefix.length));
      }),
    );
    return [...new Set(ranges.flat())].sort();
  }

  /**
   * The line items of these classes, by class (every class asked for, none or some each), in id order:
   * each class's range of the line items' listing, only its released part when `released` is true.
   * A class's line items are a few hundred at most, whatever the tenant's size.
   */
  async lineItemsOfClasses(classIds: readonly string[], released?: true): Promise<Map<string, string[]>> {
    const ranges = await Promise.all(
      [...new Set(classIds)].map(async (classId) => {
        const items = await this.listings.all('line_items', lineItemsOfClass(classId, released));
        return [classId, items.map((i) => i.recordId).sort()] as const;
      }),
    );
    return new Map(ranges);
  }

  /** The ids of a class's own score scales, in id order: its range of the scales' listing. */
  async scoreScalesOfClass(classId: string): Promise<string[]> {
    const scales = await this.listings.all('score_scales', scoreScalesOfClass(classId));
    return scales.map((s) => s.recordId).sort();
  }

  /**
   * The ids of these students' assessment results: one Query of each student's range of the listing, a
   * result for each assessment they sat, whatever the tenant's size.
   */
  async assessmentResultsOfStudents(studentIds: readonly string[]): Promise<string[]> {
    const found = await Promise.all(
      [...new Set(studentIds)].map((id) =>
        this.listings.all('assessment_results', assessmentResultsOfStudent(id)),
      ),
    );
    return found.flat().map((entry) => entry.recordId);
  }

  /**
   * The results or attendance of some classes, each whole or of one student (`studentId`), with the line
   * item or date each is for: one Query of each range of the listing. A class's results are its students
   * times its line items, its attendance its students times its days, whatever the tenant's size.
   */
  async studentWorkOfClasses(
    listing: StudentWork,
    ranges: readonly { classId: string; studentId?: string }[],
  ): Promise<StudentWorkEntry[]> {
    const prefixes = [
      ...new Set(ranges.map(({ classId, studentId }) => studentWorkOfClass(classId, studentId))),
    ];
    const found = await Promise.all(prefixes.map((prefix) => this.listings.all(listing, prefix)));
    return found.flat().map((entry) => ({ recordId: entry.recordId, ...ofStudentWork(entry.sort) }));
  }

  /**
   * What these classes say of the records they tie to their school: course, terms and last change, and
   * with `enrollments` their enrollment lists. A BatchGet of just those attributes.
   */
  async classFacts(classIds: readonly string[], enrollments: boolean): Promise<Map<string, ClassFacts>> {
    const listed = enrollments ? [internal.enrollments, internal.enrolledAt] : [];
    const items = await this.getManyItems(
      'classes',
      classIds,
      'course_id',
      'term_ids',
      'updated_at',
      ...listed,
    );
    return new Map(
      [...items].map(([id, item]) => [
        id,
        {
          courseId: String(item.course_id),
          termIds: (item.term_ids ?? []) as string[],
          updatedAt: String(item.updated_at),
          entries: entriesOf(item[internal.enrollments]),
          enrolledAt: item[internal.enrolledAt] as string | undefined,
        },
      ]),
    );
  }

  /** Each student's tutors (the ids in its `_tutors` set), by student id: a BatchGet of just that attribute. */
  async tutorsOf(studentIds: readonly string[]): Promise<Map<string, string[]>> {
    const items = await this.getManyItems('students', studentIds, internal.tutors);
    return new Map(
      [...items].map(([id, item]) => {
        const tutors = item[internal.tutors];
        return [id, tutors instanceof Set ? [...(tutors as Set<string>)].sort() : []];
      }),
    );
  }

  /** A class's enrollments, in id order: its list, then the enrollments by id. */
  async enrollmentsOfClass(classId: string): Promise<GroupRecords['enrollments'][]> {
    return this.enrollmentsOf(await this.enrollmentEntries('classes', classId));
  }

  /** A person's enrollments, in id order: their entity's list, then the enrollments by id. */
  async enrollmentsOfPerson(entityId: string): Promise<GroupRecords['enrollments'][]> {
    return this.enrollmentsOf(await this.enrollmentEntries('entities', entityId));
  }

  private async enrollmentsOf(entries: readonly EnrollmentEntry[]) {
    const ids = entries.map((e) => e.enrollmentId).sort();
    const found = await this.getMany('enrollments', ids);
    return ids.flatMap((id) => found.get(id) ?? []);
  }

  /** When a record with this id was deleted, while the deletion is retained. */
  async deletedAt(group: RecordGroup, id: string): Promise<string | undefined> {
    const { Item } = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: keys.gone(group, id) }),
    );
    return typeof Item?.deleted_at === 'string' ? Item.deleted_at : undefined;
  }

  /** The id of the group's record holding a processnumber. */
  async idByProcessnumber(group: RecordGroup, processnumber: string): Promise<string | undefined> {
    const { Item } = await this.db.send(
      new GetCommand({
        TableName: this.tableName,
        Key: keys.processnumber(group, processnumber),
        ConsistentRead: true,
      }),
    );
    return typeof Item?.id === 'string' ? Item.id : undefined;
  }

  /**
   * The ids of the group's records with this e-mail address (exact match), in id order, from the
   * keys-only `emails` index: eventually consistent, so a caller checks the records it then reads.
   */
  async idsByEmail(group: RecordGroup, email: string): Promise<string[]> {
    const ids: string[] = [];
    let startKey: Item | undefined;
    do {
      const page = await this.db.send(
        new QueryCommand({
          TableName: this.tableName,
          IndexName: tableDesign.emailsIndex.name,
          KeyConditionExpression: 'pk = :pk AND email = :email',
          ExpressionAttributeValues: { ':pk': keys.recordPartition(group), ':email': email },
          ExclusiveStartKey: startKey,
        }),
      );
      for (const item of page.Items ?? []) ids.push(String(item.sk));
      startKey = page.LastEvaluatedKey;
    } while (startKey);
    return ids.sort();
  }

  /**
   * A page of the group's list; with `ative`, only the records whose flag is that, read by a filtered
   * Query that goes on through the partition until the page is full (so it reads the records it skips),
   * but no further than FILTERED_READ bounds: a rare value in a large group would otherwise be thousands
   * of sequential Queries in one request. A page cut short says where the read stopped (`readTo`), as
   * DynamoDB's LastEvaluatedKey does, and the client's next request goes on from there.
   */
  async listPage<G extends RecordGroup>(
    group: G,
    query: PageQuery,
    ative?: boolean,
  ): Promise<RecordPage<GroupRecords[G]>> {
    let after = query.after;
    if (after === undefined && query.skip) {
      after = await this.sortKeyAtOffset(group, query.skip, query.size);
      if (after === undefined) return { items: [], hasMore: false };
    }
    // One record past the page tells whether another page follows.
    const wanted = query.itemsPerPage + 1;
    const items: Item[] = [];
    const filter =
      ative === undefined
        ? {}
        : { FilterExpression: 'ative = :ative', ExpressionAttributeValues: { ':ative': ative } };
    let read = 0;
    let queries = 0;
    let more: boolean;
    // A filtered Query reads `Limit` records before filtering: it starts at a page's worth and doubles,
    // so a common value costs about a page and a rare one reaches the bound in a few Queries.
    let limit = wanted;
    const bounded = () =>
      ative !== undefined && (read >= FILTERED_READ.records || queries >= FILTERED_READ.queries);
    do {
      const range = keysAfter(keys.recordPartition(group), after);
      const page = await this.db.send(
        new QueryCommand({
          TableName: this.tableName,
          ...recordProjection(group),
          ...filter,
          KeyConditionExpression: range.KeyConditionExpression,
          ExpressionAttributeValues: {
            ...range.ExpressionAttributeValues,
            ...filter.ExpressionAttributeValues,
          },
          Limit: ative === undefined ? wanted - items.length : Math.min(limit, FILTERED_READ.records - read),
          ConsistentRead: true,
        }),
      );
      items.push(...(page.Items ?? []));
      read += page.ScannedCount ?? 0;
      queries += 1;
      limit *= 2;
      more = page.LastEvaluatedKey !== undefined;
      if (more) after = String(page.LastEvaluatedKey?.sk);
    } while (more && items.length < wanted && !bounded());
    const cutShort = more && items.length < wanted;
    return {
      items: items.slice(0, query.itemsPerPage).map((item) => toRecord(group, item)),
      hasMore: items.length > query.itemsPerPage || cutShort,
      ...(cutShort ? { readTo: after } : {}),
      ...(ative === undefined
        ? {}
        : { beyond: items.slice(query.itemsPerPage).map((item) => toRecord(group, item)) }),
    };
  }

  /**
   * The sort key of the record at `offset` (1-based), read from the keys-only index, from the nearer end
   * when the group's `size` is given (`offsetWalk`); undefined past the end.
   */
  private async sortKeyAtOffset(
    group: RecordGroup,
    offset: number,
    size: number | undefined,
  ): Promise<string | undefined> {
    const walk = offsetWalk(offset, size);
    if (!walk) return undefined;
    let remaining = walk.steps;
    let after: string | undefined;
    for (;;) {
      const page = await this.db.send(
        new QueryCommand({
          TableName: this.tableName,
          IndexName: tableDesign.keysIndex.name,
          ...keysAfter(keys.recordPartition(group), after, walk.forward),
          ScanIndexForward: walk.forward,
          Limit: remaining,
        }),
      );
      const found = page.Items ?? [];
      remaining -= found.length;
      const last = found.at(-1);
      if (remaining === 0) return last && String(last.sk);
      if (!page.LastEvaluatedKey || !last) return undefined;
      after = String(last.sk);
    }
  }

  /**
   * Records changed in a time window, in modification order, read from the keys-only `changes` index and
   * then fetched. A record changed again since the index was read comes back in its newest version; it
   * appears again, later, at its new position.
   */
  async changesPage<G extends RecordGroup>(
    group: G,
    query: TimeWindowQuery,
  ): Promise<TimedPage<GroupRecords[G]>> {
    const { partitionKey, sortKey } = tableDesign.changesIndex;
    const positions: { id: string; position: string }[] = [];
    // From the page's start on, as in keysAfter: a BETWEEN that takes in `from`, which is passed over.
    let from = query.after ?? afterTime(query.since);
    let more: boolean;
    const wanted = query.itemsPerPage + 1;
    do {
      const page = await this.db.send(
        new QueryCommand({
          TableName: this.tableName,
          IndexName: tableDesign.changesIndex.name,
          KeyConditionExpression: '#p = :p AND #s BETWEEN :from AND :until',
          ExpressionAttributeNames: { '#p': partitionKey, '#s': sortKey },
          ExpressionAttributeValues: {
            ':p': keys.changePartition(group),
            ':from': from,
            ':until': afterTime(query.until),
          },
          Limit: wanted - positions.length + 1,
        }),
      );
      for (const item of page.Items ?? []) {
        const position = String(item[sortKey]);
        if (position !== from) positions.push({ id: String(item.sk), position });
      }
      more = page.LastEvaluatedKey !== undefined;
      if (more) from = String(page.LastEvaluatedKey?.[sortKey]);
    } while (more && positions.length < wanted);
    const inPage = positions.slice(0, query.itemsPerPage);
    const found = await this.getMany(
      group,
      inPage.map((p) => p.id),
    );
    return {
      items: inPage.flatMap(({ id, position }) => {
        const value = found.get(id);
        return value ? [{ value, position }] : [];
      }),
      hasMore: positions.length > query.itemsPerPage,
      through: inPage.at(-1)?.position,
    };
  }

  /**
   * A page of the group's list as a reader of `scope` sees it, with the number of records in that list: the
   * whole group's from its partition and counter, or the page of the ids in scope, read by id.
   */
  async listWithin<G extends RecordGroup>(
    group: G,
    scope: ReadScope,
    query: PageQuery,
  ): Promise<RecordPage<GroupRecords[G]> & { totalItems: number }> {
    if (!scope.all)
      return { ...(await this.pageAmong(group, scope.ids, query)), totalItems: scope.ids.length };
    const counting = this.count(group);
    // A jump walks from the nearer end, which the count tells: that walk waits for it.
    const size = query.after === undefined && query.skip ? await counting : undefined;
    const [page, totalItems] = await Promise.all([this.listPage(group, { ...query, size }), counting]);
    return { ...page, totalItems };
  }

  /** A page of the changes feed as a reader of `scope` sees it. */
  changesWithin<G extends RecordGroup>(
    group: G,
    scope: ReadScope,
    query: TimeWindowQuery,
  ): Promise<TimedPage<GroupRecords[G]>> {
    if (scope.all) return this.changesPage(group, query);
    const { since, changedAt } = scope;
    return this.changesAmong(group, scope.ids, query, since ? (id) => since.get(id) : () => changedAt);
  }

  /** A page of the list of a reader who may read only these ids (in id order): read by id, never by Query. */
  async pageAmong<G extends RecordGroup>(
    group: G,
    ids: readonly string[],
    query: PageQuery,
  ): Promise<RecordPage<GroupRecords[G]>> {
    const page = pageOfIds(ids, query);
    const found = await this.getMany(group, page.ids);
    return { items: page.ids.flatMap((id) => found.get(id) ?? []), hasMore: page.hasMore };
  }

  /**
   * A page of the changes feed of a reader who may read only these ids: each record read by id and placed
   * at its last change, or at `readableSince` when that is later, since a record the reader could not
   * read before is news to them whenever it changed.
   */
  async changesAmong<G extends RecordGroup>(
    group: G,
    ids: readonly string[],
    query: TimeWindowQuery,
    readableSince: (id: string) => string | undefined,
  ): Promise<TimedPage<GroupRecords[G]>> {
    const found = await this.getMany(group, ids);
    const entries = [...found].map(([id, record]) => {
      const since = readableSince(id);
      const changed = since && since > record.updated_at ? since : record.updated_at;
      return { value: record, position: keys.changeSort(changed, id) };
    });
    return pageOfWindow(entries, query);
  }

  /** Deletions in a time window, in time order. */
  async deletionsPage<G extends RecordGroup>(
    group: G,
    query: TimeWindowQuery,
  ): Promise<TimedPage<Deletion<G>>> {
    const idField = idFields[group];
    // From `after` on, as changesPage reads: the deletion at `after` is passed over.
    const from = query.after ?? afterTime(query.since);
    const { Items: read = [], LastEvaluatedKey } = await this.db.send(
      new QueryCommand({
        TableName: this.tableName,
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :until',
        ExpressionAttributeValues: {
          ':pk': keys.deletionPartition(group),
          ':from': from,
          ':until': afterTime(query.until),
        },
        Limit: query.itemsPerPage + 2,
        ConsistentRead: true,
      }),
    );
    const items = read.filter((item) => item.sk !== from);
    return {
      items: items.slice(0, query.itemsPerPage).map((item) => ({
        value: {
          id: String(item[idField]),
          deleted_at: String(item.deleted_at),
          kept: (item.kept ?? {}) as Tombstone<G>,
        },
        position: String(item.sk),
      })),
      // A Query stops at 1 MB: fewer items than asked for with a key to go on from means more may follow.
      hasMore: items.length > query.itemsPerPage || LastEvaluatedKey !== undefined,
    };
  }

  /** Every deletion of the group in a time window, in time order, read `itemsPerPage` at a time. */
  async *deletionsWithin<G extends RecordGroup>(
    group: G,
    window: Omit<TimeWindowQuery, 'after'>,
  ): AsyncGenerator<Deletion<G>> {
    let after: string | undefined;
    for (;;) {
      const page = await this.deletionsPage(group, { ...window, after });
      for (const { value } of page.items) yield value;
      after = page.items.at(-1)?.position;
      if (!page.hasMore || after === undefined) return;
    }
  }

  /** The records of these ids that exist, by id; read strongly consistent, at most 100 keys a request. */
  async getMany<G extends RecordGroup>(
    group: G,
    ids: readonly string[],
  ): Promise<Map<string, GroupRecords[G]>> {
    const items = await this.getManyItems(group, ids, ...recordFields[group]);
    return new Map([...items].map(([id, item]) => [id, toRecord(group, item)]));
  }

  /** The same with each record's version, for a writer that replaces them. */
  async getManyStored<G extends RecordGroup>(
    group: G,
    ids: readonly string[],
  ): Promise<Map<string, StoredRecord<G>>> {
    const items = await this.getManyItems(group, ids);
    return new Map([...items].map(([id, item]) => [id, toStoredRecord(group, item)]));
  }

  /**
   * The ids of the records holding these natural keys of the group (`naturalKey` in groups.ts, as
   * `naturalKeyOf` joins them), by key: a BatchGet of their claims.
   */
  async naturalKeyHolders(group: RecordGroup, values: readonly string[]): Promise<Map<string, string>> {
    const claims = await this.batchGet(
      values.map((value) => ({ ...keys.naturalKey(group, value) })),
      [],
    );
    return new Map([...claims].map(([value, claim]) => [value, String(claim.id)]));
  }

  /**
   * The stored items of these ids that exist, by id, or only the named attributes of them. An id named
   * twice is read once: DynamoDB refuses a batch that names a key twice.
   */
  getManyItems(group: RecordGroup, ids: readonly string[], ...attributes: string[]) {
    return this.batchGet(
      [...new Set(ids)].map((id) => ({ ...keys.record(group, id) })),
      attributes,
    );
  }

  /** The items of these keys that exist, by sort key, or only the named attributes of them. */
  private async batchGet(
    itemKeys: readonly Item[],
    attributes: readonly string[],
  ): Promise<Map<string, Item>> {
    const found = new Map<string, Item>();
    const projection = attributes.length > 0 ? projectionOf([tableDesign.sortKey, ...attributes]) : {};
    const batches: Item[][] = [];
    for (let start = 0; start < itemKeys.length; start += MAX_KEYS_PER_BATCH_GET) {
      batches.push(itemKeys.slice(start, start + MAX_KEYS_PER_BATCH_GET));
    }
    const readBatch = async (batch: Item[]) => {
      let pending: Item[] = batch;
      for (let attempt = 0; pending.length > 0; attempt++) {
        if (attempt > 0)
          await new Promise((resolve) => setTimeout(resolve, Math.min(1000, 25 * 2 ** attempt)));
        const { Responses, UnprocessedKeys } = await this.db.send(
          new BatchGetCommand({
            RequestItems: { [this.tableName]: { Keys: pending, ConsistentRead: true, ...projection } },
          }),
        );
        for (const item of Responses?.[this.tableName] ?? []) found.set(String(item.sk), item);
        pending = UnprocessedKeys?.[this.tableName]?.Keys ?? [];
      }
    };
    // A few batches at a time: a read of many ids waits for the slowest of a few round trips, not their sum.
    for (let start = 0; start < batches.length; start += BATCH_GETS_AT_ONCE) {
      await Promise.all(batches.slice(start, start + BATCH_GETS_AT_ONCE).map(readBatch));
    }
    return found;
  }

  /** How many times a record of the group has moved in its tree (write-steps.ts, `treeMoved`): 0 before any. */
  async treeVersion(group: RecordGroup): Promise<number> {
    const { Item: item } = await this.db.send(
      new GetCommand({
        TableName: this.tableName,
        Key: keys.counter(group),
        ProjectionExpression: '#tree',
        ExpressionAttributeNames: { '#tree': TREE_VERSION },
        ConsistentRead: true,
      }),
    );
    return typeof item?.[TREE_VERSION] === 'number' ? item[TREE_VERSION] : 0;
  }

  /** A group's count: the sum of its counter's shards (one Query, a few dozen bytes an item). */
  async count(group: RecordGroup): Promise<number> {
    return (await this.countsOf(group))[group];
  }

  async counts(): Promise<Record<RecordGroup, number>> {
    return this.countsOf();
  }

  /** Sums the counter shards of one group, or of every group, read in one Query of the counters. */
  private async countsOf(group?: RecordGroup): Promise<Record<RecordGroup, number>> {
    const counts = Object.fromEntries(recordGroups.map((g) => [g, 0])) as Record<RecordGroup, number>;
    let ExclusiveStartKey: Item | undefined;
    do {
      const page = await this.db.send(
        new QueryCommand({
          TableName: this.tableName,
          KeyConditionExpression: group ? 'pk = :pk AND begins_with(sk, :group)' : 'pk = :pk',
          ExpressionAttributeValues: {
            ':pk': keys.counterPartition,
            ...(group ? { ':group': keys.counter(group).sk } : {}),
          },
          ConsistentRead: true,
          ExclusiveStartKey,
        }),
      );
      for (const item of page.Items ?? []) {
        // `<group>` (a table from before the shards) or `<group>#<shard>`.
        const counted = recordGroups.find((g) => item.sk === g || String(item.sk).startsWith(`${g}#`));
        if (counted && typeof item.count === 'number') counts[counted] += item.count;
      }
      ExclusiveStartKey = page.LastEvaluatedKey;
    } while (ExclusiveStartKey);
    return counts;
  }
}
