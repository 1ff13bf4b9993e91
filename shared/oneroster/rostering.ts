// The OneRoster 1.2 Rostering read operations over the native groups: users (and students and teachers,
// the users of one role, in the same `users` and `user` payloads), orgs (and schools), and demographics. Each list reads its candidates (a whole
// group, or only what changed since a time when the filter allows), makes the objects, then filters,
// sorts, pages and selects fields (collection-query.ts). docs/oneroster.md tells the read cost of each.

import { type OneRosterObjectName, readableObjectFields } from '../clients/profiles';
import type { Deletion } from '../data/pages';
import { type RecordGroup, type RoleGroup, roleGroups, roleName } from '../domain/groups';
import type { ApiRequest, ApiResponse } from '../exchange';
import type { Entity, EntityRole, GroupRecords, Tutor } from '../schemas/records';
import { type Affiliations, affiliationsOf } from './affiliations';
import {
  type CollectionQuery,
  deltaWindow,
  inChangeOrder,
  inKeyOrder,
  pagingHeaders,
  parseCollectionQuery,
  selectFields,
  selectPage,
  toldOf,
  walks,
} from './collection-query';
import { filterFields } from './filter';
import {
  homeOrganisation,
  ObjectMaker,
  type OneRosterDemographics,
  type OneRosterUser,
  objectFields,
  organisationsOf,
  tenantOrganisation,
} from './objects';
import { pathId, unknownObject } from './path-ids';
import type { DeltaFeed, RosterReader, WalkEntry } from './roster-reader';
import { OneRosterError } from './status-info';
import { batchSize, type Placed, type WalkedPage, walkPage } from './walk';

/** How long a function instance keeps the tenant's root organisation before reading it again. */
const ROOT_ORG_TTL_MS = 5 * 60_000;
let rootOrg: { id: string; readAt: number } | undefined;

/**
 * The org users' roles are at: the root organisation, or the tenant's own when it has none. Found among
 * the organisations (their listing, or `entities` where the request has read them all already).
 */
export async function homeOrgId(request: ApiRequest, reader: RosterReader, entities?: readonly Entity[]) {
  const now = Date.now();
  const { tenantId } = request.config;
  // A school-scoped read's entities are its schools' alone: the root is found among all organisations.
  if (entities && reader.readsWholeTenant) {
    rootOrg = { id: homeOrganisation(entities, tenantId).entity_id, readAt: now };
  } else if (!rootOrg || now - rootOrg.readAt > ROOT_ORG_TTL_MS) {
    rootOrg = { id: homeOrganisation(await reader.organisations(), tenantId).entity_id, readAt: now };
  }
  return rootOrg.id;
}

export const makerFor = (request: ApiRequest, homeOrg: string) =>
  new ObjectMaker(request.config.publicBaseUrl, homeOrg);

/**
 * The group's deletions a delta read tells of (docs/oneroster.md, "Deletions"): those in the window of
 * its `dateLastModified>` filter; none for any other read.
 */
export async function deletionsFor<G extends RecordGroup>(
  reader: RosterReader,
  group: G,
  query: CollectionQuery,
): Promise<Deletion<G>[]> {
  const window = deltaWindow(query.filter);
  return window ? reader.deletedSince(group, window.since, window.inclusive) : [];
}

/** The objects there are, and after them those deleted that are not there again (an id re-created). */
export function withDeleted<T extends { sourcedId: string }>(objects: T[], deleted: readonly T[]): T[] {
  if (deleted.length === 0) return objects;
  const present = new Set(objects.map((o) => o.sourcedId));
  return [...objects, ...deleted.filter((d) => !present.has(d.sourcedId))];
}

/**
 * The users a delta read tells were deleted: the persons one of whose role records of the collection's
 * role (any role, for all users) was deleted in the window and who have no such role now, at the time
 * of their latest such deletion.
 */
async function deletedUsers(
  reader: RosterReader,
  query: CollectionQuery,
  role: UserRole | undefined,
  maker: ObjectMaker,
): Promise<OneRosterUser[]> {
  const groups = deletedRoleGroups(role);
  const deletions = await Promise.all(
    groups.map(async (group) =>
      (await deletionsFor(reader, group, query)).map((d) => ({ ...d, role: roleName(group) })),
    ),
  );
  const latest = new Map<string, { at: string; role: EntityRole['role'] }>();
  for (const { kept, deleted_at, role: was } of deletions.flat()) {
    const entityId = kept.entity_id;
    if (entityId && !((latest.get(entityId)?.at ?? '') > deleted_at))
      latest.set(entityId, { at: deleted_at, role: was });
  }
  if (latest.size === 0) return [];
  const now = await reader.getMany('entities', [...latest.keys()]);
  return [...latest].flatMap(([id, { at, role: was }]) => {
    const entity = now.get(id);
    return entity && hasRole(role)(entity) ? [] : [maker.deletedUser(id, at, was)];
  });
}

/**
 * The list response: the page under its collection key, with X-Total-Count and Link. `complete` remakes
 * the page's objects with what is read only for the objects a page holds.
 */
export async function collectionResponse<T extends { sourcedId: string }>(
  request: ApiRequest,
  key: string,
  objects: readonly T[],
  query: CollectionQuery,
  complete?: (page: T[]) => Promise<T[]>,
): Promise<ApiResponse> {
  if (query.after !== undefined) {
    throw new OneRosterError(
      400,
      'invaliddata',
      'This collection is paged by offset alone: after is not taken here.',
    );
  }
  const selected = selectPage(objects, query);
  const page = complete ? await complete(selected.page) : selected.page;
  const url = `${request.config.publicBaseUrl}${request.event.rawPath}`;
  return {
    headers: pagingHeaders(url, request.query, query, selected.total),
    body: { [key]: page.map((o) => selectFields(o, query.fields)) },
    ...audited(key, [...page, ...toldOf(objects, query.filter, selected.selected)]),
  };
}

/**
 * The list response of a page read by itself in sourcedId order (`inKeyOrder`): its objects, with the
 * collection's total, and a next link that goes on after the page's last object.
 */
export function keyedResponse<T extends { sourcedId: string }>(
  request: ApiRequest,
  key: string,
  page: readonly T[],
  query: CollectionQuery,
  { total, next }: { total: number; next: string | undefined },
): ApiResponse {
  const url = `${request.config.publicBaseUrl}${request.event.rawPath}`;
  return {
    headers: pagingHeaders(url, request.query, query, total, next),
    body: { [key]: page.map((o) => selectFields(o, query.fields)) },
    ...audited(key, page),
  };
}

/**
 * The list response of a page of a walk (`walks`): its objects, a next link that goes on from where the
 * page ended while the walk does, and X-Total-Count where the walk knows it (walk.ts). It names the
 * objects the walk found the filter selects, and, for two predicates joined by AND, those of the objects
 * it read that the narrower one selects alone (toldOf).
 */
export function walkResponse<T extends { sourcedId: string }>(
  request: ApiRequest,
  key: string,
  query: CollectionQuery,
  { page, next, total, examined, selected }: WalkedPage<T>,
): ApiResponse {
  const url = `${request.config.publicBaseUrl}${request.event.rawPath}`;
  const objects = page.map((p) => p.object);
  return {
    headers: pagingHeaders(url, request.query, query, total, next),
    body: { [key]: objects.map((o) => selectFields(o, query.fields)) },
    ...audited(key, [...objects, ...toldOf(examined, query.filter, selected)]),
  };
}

/**
 * The entries of a walk: in a delta, what changed and was deleted in its window (these feeds), from its
 * `after` position; otherwise the collection in sourcedId order (`byKey`, from its `after` sourcedId).
 */
export function walkEntries(
  reader: RosterReader,
  query: CollectionQuery,
  feeds: readonly DeltaFeed[],
  byKey: (after: string | undefined, batch: number) => AsyncIterable<WalkEntry>,
): AsyncIterable<WalkEntry> {
  const window = deltaWindow(query.filter);
  return window && inChangeOrder(query)
    ? reader.delta(feeds, window, query.after, batchSize(query))
    : byKey(query.after, batchSize(query));
}

/** A walk of a group: in a delta, its changed records and its deletions; otherwise its records by id. */
export const walkOf = (reader: RosterReader, query: CollectionQuery, group: RecordGroup) =>
  walkEntries(
    reader,
    query,
    [
      { kind: 'changed', group },
      { kind: 'deleted', group },
    ],
    (after, batch) => reader.recordsInKeyOrder(group, after, batch),
  );

/**
 * Makes walk entries of a group whose records each belong to one class (an enrollment, a line item) into
 * objects, each at its class's school: the classes of the batch are read by id at once. A deletion is made
 * from what it kept, at its class's school while the class exists; a record whose class is not found is
 * left out.
 */
export async function atClassSchools<G extends 'enrollments' | 'line_items', T>(
  reader: RosterReader,
  batch: readonly WalkEntry[],
  make: {
    changed: (record: GroupRecords[G], schoolId: string) => T;
    deleted: (deletion: Deletion<G>, schoolId: string | undefined) => T;
  },
): Promise<Placed<T>[]> {
  const classOf = (entry: WalkEntry) =>
    entry.kind === 'changed'
      ? (entry.record as GroupRecords[G]).class_id
      : (entry.deletion as Deletion<'enrollments' | 'line_items'>).kept.class_id;
  const schools = await reader.schoolsOfClasses([...new Set(batch.flatMap((e) => classOf(e) ?? []))]);
  return batch.flatMap((entry): Placed<T>[] => {
    const classId = classOf(entry);
    const school = classId === undefined ? undefined : schools.get(classId);
    if (entry.kind === 'deleted') {
      return [{ position: entry.position, object: make.deleted(entry.deletion as Deletion<G>, school) }];
    }
    return school
      ? [{ position: entry.position, object: make.changed(entry.record as GroupRecords[G], school) }]
      : [];
  });
}

/** The payload keys of people: a user's (and its demographics') sourcedId is the person's entity id. */
const peopleKeys = new Set(['users', 'user', 'demographics']);

/**
 * The people a response returns or tells of, for its audit event (shared/audit/): their ids, each once,
 * never their content.
 */
function audited(key: string, objects: readonly { sourcedId: string }[]): Pick<ApiResponse, 'audit'> {
  if (!peopleKeys.has(key)) return {};
  const ids = [...new Set(objects.map((o) => o.sourcedId))];
  return { audit: { recordIds: ids, entityIds: ids } };
}

export type UserRole = 'student' | 'teacher';

/** A user is a person with a role: the binding's users have at least one. */
const isUser = (e: Entity) => e.entity_type === 'person' && e.roles.length > 0;
export const hasRole = (role: UserRole | undefined) => (e: Entity) =>
  isUser(e) && (role === undefined || e.roles.some((r) => r.role === role));

/** What a user object takes beyond its entity: whether it is enabled, and its affiliations. */
interface UserFacts {
  enabled: Set<string>;
  affiliations: Map<string, Affiliations>;
}

const unique = (values: Iterable<string>) => [...new Set(values)];

/**
 * The facts of some people's users, read by id for them alone: their role records (an active one makes
 * the user enabled), a student's guardians and a guardian's students, and the schools of their
 * enrollments and of their students' (affiliations.ts).
 */
async function userFacts(reader: RosterReader, people: readonly Entity[]): Promise<UserFacts> {
  const roles = people.flatMap((e) => e.roles);
  const idsOf = (role: string) => roles.filter((r) => r.role === role).map((r) => r.id);
  const classesOf = (lists: Map<string, { entries: { otherId: string }[] }>) =>
    unique([...lists.values()].flatMap((l) => l.entries.map((e) => e.otherId)));
  // What the people's own ids lead to, read together; then what those lead to, and so on.
  const [found, tutorsOfStudent, ownLists] = await Promise.all([
    Promise.all(
      roleGroups.map(async (group) => [group, await reader.getMany(group, idsOf(roleName(group)))] as const),
    ).then((pairs) => new Map(pairs)),
    reader.tutorsOf(idsOf('student')),
    reader.enrollmentListsOf(people.map((e) => e.entity_id)),
  ]);
  const tutors = found.get('tutors') as Map<string, Tutor>;
  const [guardianRecords, guardedRecords, ownSchools] = await Promise.all([
    reader.getMany('tutors', unique([...tutorsOfStudent.values()].flat())),
    reader.getMany('students', unique([...tutors.values()].flatMap((t) => t.student_ids))),
    reader.schoolsOfClasses(classesOf(ownLists)),
  ]);
  const guardedLists = await reader.enrollmentListsOf(
    unique([...guardedRecords.values()].map((s) => s.entity_id)).filter((id) => !ownLists.has(id)),
  );
  const guardedSchools = await reader.schoolsOfClasses(
    classesOf(guardedLists).filter((id) => !ownSchools.has(id)),
  );
  const active = new Set(
    [...found.values()].flatMap((records) => [...records].filter(([, r]) => r.ative).map(([id]) => id)),
  );
  const enrolled = (entityId: string) =>
    ((ownLists.get(entityId) ?? guardedLists.get(entityId))?.entries ?? []).map((e) => ({
      role: e.role,
      classId: e.otherId,
    }));
  const schoolOf = (classId: string) => ownSchools.get(classId) ?? guardedSchools.get(classId);
  const ofRole = (e: Entity, role: string) => e.roles.filter((r) => r.role === role).map((r) => r.id);
  const affiliations = new Map(
    people.map((e) => {
      const guardians = ofRole(e, 'student')
        .flatMap((id) => tutorsOfStudent.get(id) ?? [])
        .flatMap((id) => guardianRecords.get(id)?.entity_id ?? []);
      const guarded = ofRole(e, 'tutor')
        .flatMap((id) => tutors.get(id)?.student_ids ?? [])
        .flatMap((id) => guardedRecords.get(id)?.entity_id ?? []);
      const links = { enrollments: enrolled(e.entity_id), students: guarded, guardians };
      const roleNames = e.roles.map((r) => r.role);
      return [e.entity_id, affiliationsOf(roleNames, links, schoolOf, enrolled)] as const;
    }),
  );
  return {
    enabled: new Set(people.filter((e) => e.roles.some((r) => active.has(r.id))).map((e) => e.entity_id)),
    affiliations,
  };
}

/** Whether a filter or sort looks at what userFacts reads: then it is read for every user selected from. */
const namesUserFacts = ({ sort, filter }: CollectionQuery) =>
  [sort ?? '', ...(filter ? filterFields(filter) : [])].some((f) => {
    const root = f.split('.')[0];
    return (
      root === 'enabledUser' ||
      root === 'agents' ||
      root === 'primaryOrg' ||
      f === 'roles' ||
      f.startsWith('roles.org')
    );
  });

/** A person's user, with its facts where they were read (else not enabled, and placed at the root). */
const userOf = (maker: ObjectMaker, facts: UserFacts | undefined) => (e: Entity) =>
  maker.user(e, facts?.enabled.has(e.entity_id) ?? false, facts?.affiliations.get(e.entity_id));

/**
 * A page of users made without their facts, made again with them: read for the page's active users
 * alone (their entities in `entities`), once the filter and paging have chosen them.
 */
async function withTheirFacts(
  reader: RosterReader,
  maker: ObjectMaker,
  entities: ReadonlyMap<string, Entity>,
  page: readonly OneRosterUser[],
): Promise<OneRosterUser[]> {
  const onPage = page.flatMap((u) => (u.status === 'active' ? (entities.get(u.sourcedId) ?? []) : []));
  const made = new Map(
    onPage.map(userOf(maker, await userFacts(reader, onPage))).map((u) => [u.sourcedId, u]),
  );
  return page.map((u) => made.get(u.sourcedId) ?? u);
}

/**
 * The users response for some people. `enabledUser` comes from their role records, read by id for the
 * page alone; for every person only when the filter or sort names it.
 */
export async function usersResponse(
  request: ApiRequest,
  reader: RosterReader,
  query: CollectionQuery,
  people: readonly Entity[],
  homeOrg: string,
  deleted: (maker: ObjectMaker) => Promise<OneRosterUser[]> = async () => [],
): Promise<ApiResponse> {
  const maker = makerFor(request, homeOrg);
  const gone = await deleted(maker);
  if (namesUserFacts(query)) {
    const all = people.map(userOf(maker, await userFacts(reader, people)));
    return collectionResponse(request, 'users', withDeleted(all, gone), query);
  }
  // Selected and paged before the facts are read, which neither filter nor sort looks at here.
  const byId = new Map(people.map((e) => [e.entity_id, e]));
  const bare = people.map(userOf(maker, undefined));
  return collectionResponse(request, 'users', withDeleted(bare, gone), query, (page) =>
    withTheirFacts(reader, maker, byId, page),
  );
}

/** The listing of the users of a role, or of every user. */
const listingOf = (role: UserRole | undefined) =>
  role === undefined ? 'users' : role === 'student' ? 'students' : 'teachers';

/**
 * A page of users in sourcedId order, read from its listing by itself: the entities by id, with their
 * role records for enabledUser.
 */
async function usersPage(
  request: ApiRequest,
  reader: RosterReader,
  query: CollectionQuery,
  role: UserRole | undefined,
) {
  const page = await reader.peoplePage(listingOf(role), query);
  const [people, homeOrg] = await Promise.all([
    reader.entitiesInOrder(page.entityIds),
    homeOrgId(request, reader),
  ]);
  return { page, people, maker: makerFor(request, homeOrg) };
}

/** A page of users read by itself in sourcedId order, with their facts, and where the next page starts. */
export async function usersPageResponse(
  request: ApiRequest,
  reader: RosterReader,
  query: CollectionQuery,
  people: readonly Entity[],
  page: { total: number; next: string | undefined },
): Promise<ApiResponse> {
  const [facts, homeOrg] = await Promise.all([userFacts(reader, people), homeOrgId(request, reader)]);
  const users = people.map(userOf(makerFor(request, homeOrg), facts));
  return keyedResponse(request, 'users', users, query, page);
}

/** The role groups whose deleted records tell of deleted users: of the role, or of any role for all users. */
const deletedRoleGroups = (role: UserRole | undefined): readonly RoleGroup[] =>
  role === undefined ? roleGroups : [role === 'student' ? 'students' : 'teachers'];

/**
 * How a walk of users makes its objects: `make` turns a batch into users (the entities that are users of
 * the role; a deleted role record's person when they have no such role now, deletedUsers' rule), and
 * `complete` gives the page its users' facts. The facts are read for the whole batch only when the
 * filter looks at them; otherwise only for the page, once the filter has chosen it.
 */
function usersWalk(
  request: ApiRequest,
  reader: RosterReader,
  role: UserRole | undefined,
  query: CollectionQuery,
) {
  const withFacts = namesUserFacts(query);
  const entities = new Map<string, Entity>();
  const make = async (batch: WalkEntry[]): Promise<Placed<OneRosterUser>[]> => {
    const personOf = (entry: WalkEntry) =>
      entry.kind === 'deleted' ? (entry.deletion.kept as { entity_id?: string }).entity_id : undefined;
    const people = batch.flatMap((e) =>
      e.kind === 'changed' && hasRole(role)(e.record as Entity) ? [e.record as Entity] : [],
    );
    for (const entity of people) entities.set(entity.entity_id, entity);
    const [facts, homeOrg, now] = await Promise.all([
      withFacts ? userFacts(reader, people) : undefined,
      homeOrgId(request, reader),
      reader.getMany('entities', unique(batch.flatMap((e) => personOf(e) ?? []))),
    ]);
    const maker = makerFor(request, homeOrg);
    return batch.flatMap((entry): Placed<OneRosterUser>[] => {
      if (entry.kind === 'changed') {
        const entity = entry.record as Entity;
        return hasRole(role)(entity)
          ? [{ position: entry.position, object: userOf(maker, facts)(entity) }]
          : [];
      }
      const id = personOf(entry);
      const entity = id === undefined ? undefined : now.get(id);
      if (id === undefined || (entity && hasRole(role)(entity))) return [];
      const was = roleName(entry.group as RoleGroup);
      return [{ position: entry.position, object: maker.deletedUser(id, entry.deletion.deleted_at, was) }];
    });
  };
  const complete = async (walked: WalkedPage<OneRosterUser>): Promise<WalkedPage<OneRosterUser>> => {
    if (withFacts) return walked;
    const maker = makerFor(request, await homeOrgId(request, reader));
    const users = await withTheirFacts(
      reader,
      maker,
      entities,
      walked.page.map((p) => p.object),
    );
    return { ...walked, page: walked.page.map((p, i) => ({ ...p, object: users[i] as OneRosterUser })) };
  };
  return { make, complete };
}

/** GET /users, /students and /teachers. */
export async function listUsers(
  request: ApiRequest,
  reader: RosterReader,
  role: UserRole | undefined,
): Promise<ApiResponse> {
  const query = objectQuery(request, 'users');
  if (inKeyOrder(query)) {
    const page = await reader.peoplePage(listingOf(role), query);
    return usersPageResponse(request, reader, query, await reader.entitiesInOrder(page.entityIds), page);
  }
  if (walks(query)) {
    const feeds: DeltaFeed[] = [
      { kind: 'changed', group: 'entities' },
      ...deletedRoleGroups(role).map((group) => ({ kind: 'deleted' as const, group })),
    ];
    const entries = walkEntries(reader, query, feeds, (after, batch) =>
      reader.peopleInKeyOrder(listingOf(role), after, batch),
    );
    const { make, complete } = usersWalk(request, reader, role, query);
    return walkResponse(request, 'users', query, await complete(await walkPage(entries, query, make)));
  }
  const window = deltaWindow(query.filter);
  let entities: Entity[];
  let homeOrg: string;
  if (window) {
    entities = await reader.changedSince('entities', window.since, window.inclusive);
    homeOrg = await homeOrgId(request, reader);
  } else {
    entities = await reader.all('entities');
    homeOrg = await homeOrgId(request, reader, entities);
  }
  return usersResponse(request, reader, query, entities.filter(hasRole(role)), homeOrg, (maker) =>
    deletedUsers(reader, query, role, maker),
  );
}

/**
 * The query of a read of `object`, within the fields its client's profile lets it read: a filter, sort or
 * `fields` naming another is refused as naming no field, and without `fields` only those are answered.
 */
export function objectQuery(request: ApiRequest, object: OneRosterObjectName): CollectionQuery {
  const all = objectFields[object];
  const readable = readableObjectFields(request.auth?.profile, object);
  const query = parseCollectionQuery(request.query, readable);
  return readable.length < all.length && !query.fields ? { ...query, fields: [...readable] } : query;
}

/** The one object of a single-object read, with only the fields asked for. */
export function singleObject(request: ApiRequest, object: OneRosterObjectName) {
  const fields = objectQuery(request, object).fields;
  return <T extends { sourcedId: string }>(key: string, object: T): ApiResponse => ({
    body: { [key]: selectFields(object, fields) },
    ...audited(key, [object]),
  });
}

/** GET /users/{sourcedId}, /students/{sourcedId} and /teachers/{sourcedId}. */
export async function getUser(
  request: ApiRequest,
  reader: RosterReader,
  role: UserRole | undefined,
): Promise<ApiResponse> {
  const respond = singleObject(request, 'users');
  const id = pathId(request, role ?? 'user');
  const entity = (await reader.get('entities', id))?.record;
  if (!entity || !hasRole(role)(entity)) throw unknownObject(role ?? 'user', id);
  const maker = makerFor(request, await homeOrgId(request, reader));
  const facts = await userFacts(reader, [entity]);
  return respond('user', userOf(maker, facts)(entity));
}

export const isOrg = (type: string | undefined) => (e: Entity) =>
  e.entity_type === 'organisation' && (type === undefined || (e as { org_type?: unknown }).org_type === type);

/** The school a nested path names, checked to be one. */
export async function schoolOf(request: ApiRequest, reader: RosterReader): Promise<string> {
  const id = pathId(request, 'school');
  const entity = (await reader.get('entities', id))?.record;
  if (!entity || !isOrg('school')(entity)) throw unknownObject('school', id);
  return id;
}

/** GET /orgs and /schools. */
export async function listOrgs(
  request: ApiRequest,
  reader: RosterReader,
  type: 'school' | undefined,
): Promise<ApiResponse> {
  const query = objectQuery(request, 'orgs');
  // An org lists its children, which may have changed without it: the organisations are read whole.
  const stored = await reader.organisations();
  const orgs = organisationsOf(stored, request.config.tenantId);
  const readable = await reader.readableOrganisations(orgs);
  const maker = makerFor(request, await homeOrgId(request, reader, stored));
  const deleted = (await deletionsFor(reader, 'entities', query))
    .filter(
      ({ kept }) => kept.entity_type === 'organisation' && (type === undefined || kept.org_type === type),
    )
    .map((d) => maker.deletedOrg(d.id, d.deleted_at, d.kept.org_type));
  return collectionResponse(
    request,
    'orgs',
    withDeleted(
      readable.filter(isOrg(type)).map((e) => maker.org(e, orgs)),
      deleted,
    ),
    query,
  );
}

/** GET /orgs/{sourcedId} and /schools/{sourcedId}. */
export async function getOrg(
  request: ApiRequest,
  reader: RosterReader,
  type: 'school' | undefined,
): Promise<ApiResponse> {
  const respond = singleObject(request, 'orgs');
  const id = pathId(request, type ?? 'org');
  const { tenantId } = request.config;
  const stored = (await reader.get('entities', id))?.record;
  // The tenant's own organisation is served only while it has none of its own.
  if (stored ? !isOrg(type)(stored) : id !== tenantOrganisation(tenantId).entity_id) {
    throw unknownObject(type ?? 'org', id);
  }
  // Its children are the organisations that name it as parent: found among all of them.
  const all = await reader.organisations();
  const orgs = organisationsOf(all, tenantId);
  const entity = orgs.find((o) => o.entity_id === id);
  if (!entity || !isOrg(type)(entity)) throw unknownObject(type ?? 'org', id);
  const maker = makerFor(request, await homeOrgId(request, reader, all));
  return respond('org', maker.org(entity, orgs));
}

/** The record of a person's first role, where their birth date and gender are kept. */
async function demographicsOf(reader: RosterReader, maker: ObjectMaker, people: readonly Entity[]) {
  const firstRoles = people.flatMap((e) => (e.roles[0] ? [{ entity: e, role: e.roles[0] }] : []));
  const records = await Promise.all(
    roleGroups.map((group) =>
      reader.getMany(
        group,
        firstRoles.filter((f) => f.role.role === roleName(group)).map((f) => f.role.id),
      ),
    ),
  );
  const found = new Map(records.flatMap((m) => [...m]));
  return firstRoles.flatMap(({ entity, role }) => {
    const person = found.get(role.id);
    return person ? [maker.demographics(entity, person)] : [];
  });
}

/**
 * Makes a batch of a demographics walk into demographics: a user's, and in a delta the person's whose
 * first role record changed (where birth date and gender are kept), and a deleted person's (one whose
 * role record was deleted and who has no role left, as /users tells).
 */
const demographicsOfWalk =
  (request: ApiRequest, reader: RosterReader) =>
  async (batch: WalkEntry[]): Promise<Placed<OneRosterDemographics>[]> => {
    const personOf = (entry: WalkEntry) =>
      entry.kind === 'deleted'
        ? (entry.deletion.kept as { entity_id?: string }).entity_id
        : entry.group === 'entities'
          ? (entry.record as Entity).entity_id
          : (entry.record as { entity_id: string }).entity_id;
    const changedEntities = new Map(
      batch.flatMap((e) =>
        e.kind === 'changed' && e.group === 'entities' ? [[personOf(e), e.record as Entity] as const] : [],
      ),
    );
    const others = await reader.getMany(
      'entities',
      unique(batch.flatMap((e) => personOf(e) ?? [])).filter((id) => !changedEntities.has(id)),
    );
    const entityOf = (id: string | undefined) =>
      id === undefined ? undefined : (changedEntities.get(id) ?? others.get(id));
    const isFirstRole = (entry: WalkEntry) =>
      entry.kind === 'changed' &&
      (entry.group === 'entities' || entityOf(personOf(entry))?.roles[0]?.id === idOfRecord(entry));
    const people = unique(batch.flatMap((e) => (isFirstRole(e) ? (personOf(e) ?? []) : [])))
      .flatMap((id) => entityOf(id) ?? [])
      .filter(isUser);
    const maker = makerFor(request, request.config.tenantId);
    const made = new Map((await demographicsOf(reader, maker, people)).map((d) => [d.sourcedId, d]));
    return batch.flatMap((entry): Placed<OneRosterDemographics>[] => {
      const person = personOf(entry);
      if (entry.kind === 'deleted') {
        // A person's demographics go with their last role, as their user does.
        const entity = entityOf(person);
        if (person === undefined || (entity && isUser(entity))) return [];
        return [
          { position: entry.position, object: maker.deletedDemographics(person, entry.deletion.deleted_at) },
        ];
      }
      const object = isFirstRole(entry) ? made.get(person ?? '') : undefined;
      return object ? [{ position: entry.position, object }] : [];
    });
  };

/** The id of the record a changed entry holds, as its position ends with it. */
const idOfRecord = (entry: WalkEntry) => entry.position.slice(entry.position.indexOf('#') + 1);

/** GET /demographics. */
export async function listDemographics(request: ApiRequest, reader: RosterReader): Promise<ApiResponse> {
  const query = objectQuery(request, 'demographics');
  if (inKeyOrder(query)) {
    const { page, people, maker } = await usersPage(request, reader, query, undefined);
    return keyedResponse(request, 'demographics', await demographicsOf(reader, maker, people), query, page);
  }
  if (walks(query)) {
    const feeds: DeltaFeed[] = [
      { kind: 'changed', group: 'entities' },
      ...roleGroups.flatMap((group) => [
        { kind: 'changed' as const, group },
        { kind: 'deleted' as const, group },
      ]),
    ];
    const entries = walkEntries(reader, query, feeds, (after, batch) =>
      reader.peopleInKeyOrder('users', after, batch),
    );
    const walked = await walkPage(entries, query, demographicsOfWalk(request, reader));
    return walkResponse(request, 'demographics', query, walked);
  }
  const entities = await reader.all('entities');
  const maker = makerFor(request, await homeOrgId(request, reader, entities));
  const objects = await demographicsOf(reader, maker, entities.filter(isUser));
  const deleted = (await deletedUsers(reader, query, undefined, maker)).map((u) =>
    maker.deletedDemographics(u.sourcedId, u.dateLastModified),
  );
  return collectionResponse(request, 'demographics', withDeleted(objects, deleted), query);
}

/** GET /demographics/{sourcedId}. */
export async function getDemographics(request: ApiRequest, reader: RosterReader): Promise<ApiResponse> {
  const respond = singleObject(request, 'demographics');
  const id = pathId(request, 'demographics');
  const entity = (await reader.get('entities', id))?.record;
  const maker = makerFor(request, request.config.tenantId);
  const [object] = entity && isUser(entity) ? await demographicsOf(reader, maker, [entity]) : [];
  if (!object) throw unknownObject('demographics', id);
  return respond('demographics', object);
}
