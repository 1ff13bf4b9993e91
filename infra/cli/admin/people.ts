// A person's data on request (GDPR articles 15 and 17; FERPA's right to inspect): `people export` gathers
// every record about a person (their entity, their student, teacher, tutor and staff records, a student's
// results, attendance and assessment results, their sign-in accounts without password hashes, and the
// audit trail of their records) into one document;
// `people erase` first ends each account: its login names, sign-on sessions, refresh tokens, unredeemed
// codes and sign-in counters are deleted, its sign-ins (refresh families) marked revoked and the account
// recorded as signed out for the verifiers of every route, in transactions of its own; then it deletes the records through the record writer (one transaction each, so
// roles, claims, counters and links stay consistent), and last the kept first responses of POSTs with an
// Idempotency-Key that name the person. Each step finds what is left, so an erase that failed part-way is
// run again to finish, even once the entity is gone.

import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { DeleteCommand, GetCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { AuditEvent } from '../../../shared/audit/audit-event';
import type { AuditLog } from '../../../shared/audit/audit-log';
import { idsOfRole, studentOf } from '../../../shared/auth/reach';
import { LONGEST_ACCESS_TOKEN_SECONDS } from '../../../shared/config';
import {
  allItemKinds,
  itemKinds,
  type PersonErasure,
  type PersonKind,
} from '../../../shared/data/item-kinds';
import { ItemStore } from '../../../shared/data/items';
import { type Key, keys } from '../../../shared/data/keys';
import { rangesOfStudent, type StudentWork, studentWork } from '../../../shared/data/listings';
import { internal } from '../../../shared/data/record-items';
import type { RecordRepository } from '../../../shared/data/record-repository';
import { revocationItems } from '../../../shared/data/revocation-repository';
import { accountThrottleSubject } from '../../../shared/data/sign-in-throttle-repository';
import { timeToLive } from '../../../shared/data/table';
import type { User, UserRepository } from '../../../shared/data/user-repository';
import { type RecordGroup, type RoleGroup, roleGroups, roleName } from '../../../shared/domain/groups';
import type { RecordWriter } from '../../../shared/records/record-writer';
import type { Entity, GroupRecords, Tutor } from '../../../shared/schemas/records';
import type { InsertRequest } from '../../../shared/schemas/requests';
import type { AuditSource } from './audit';
import { auditOfPerson } from './audit';
import { UsageError } from './usage-error';
import { summarise, type UserSummary } from './users';

export interface PeopleStores {
  db: DynamoDBDocumentClient;
  tableName: string;
  tenantId: string;
  records: RecordRepository;
  writer: RecordWriter;
  users: UserRepository;
  auditSource: AuditSource;
  auditLog: AuditLog;
  /** Who runs the command, for the audit event (the operator's login on this machine). */
  operator: string;
  now?: () => Date;
}

/** An account as the person's export shows it: as `users list` does, without a secret of any kind. */
export type AccountSummary = UserSummary;

export interface PersonExport {
  exported_at: string;
  tenant_id: string;
  entity: Entity;
  /** Their records of every role group, with every value (documents and bank accounts unmasked). */
  records: { [G in RoleGroup]: GroupRecords[G][] };
  /** A student's results, attendance and assessment results: what they name the person's student records by. */
  work: { [G in StudentWork | 'assessment_results']: GroupRecords[G][] };
  accounts: AccountSummary[];
  /** Who read or changed their records, from the start of the audit log. */
  audit: AuditEvent[];
}

async function entityOf(records: RecordRepository, entityId: string): Promise<Entity> {
  const entity = (await records.get('entities', entityId))?.record;
  if (!entity) throw new UsageError(`there is no entity ${entityId}.`);
  if (entity.entity_type !== 'person')
    throw new UsageError(`entity ${entityId} is an organisation, not a person.`);
  return entity;
}

const accountsOf = async (users: UserRepository, entityId: string) =>
  (await users.list()).filter((user) => user.entity_id === entityId);

/** One audit event of an admin command about a person: ids only, as the API's are. */
function adminEvent(
  stores: PeopleStores,
  command: 'people-export' | 'people-erase',
  entityId: string,
  recordIds: string[],
  outcome = 200,
): AuditEvent {
  return {
    time: (stores.now?.() ?? new Date()).toISOString(),
    request_id: crypto.randomUUID(),
    route: `admin:${command}`,
    method: 'CLI',
    action: command === 'people-export' ? 'read' : 'write',
    group: 'entities',
    record_ids: recordIds,
    entity_ids: [entityId],
    outcome,
    client_id: 'admin-cli',
    actor_user_id: stores.operator,
    actor_entity_id: undefined,
  };
}

export async function exportPerson(stores: PeopleStores, entityId: string): Promise<PersonExport> {
  const entity = await entityOf(stores.records, entityId);
  const records = Object.fromEntries(
    await Promise.all(
      roleGroups.map(async (group) => {
        const found = await stores.records.getMany(group, idsOfRole(entity, roleName(group)));
        return [group, [...found.values()]];
      }),
    ),
  ) as PersonExport['records'];
  const workOf = async <G extends StudentWork | 'assessment_results'>(group: G, ids: readonly string[]) =>
    [group, [...(await stores.records.getMany(group, ids)).values()]] as const;
  const work = Object.fromEntries(
    await Promise.all([
      ...studentWork.map(async (listing) => workOf(listing, await studentWorkOf(stores, entity, listing))),
      workOf('assessment_results', await assessmentResultsOf(stores, entity)),
    ]),
  ) as PersonExport['work'];
  const accounts = (await accountsOf(stores.users, entityId)).map(summarise);
  const audit = await auditOfPerson(stores.auditSource, entityId, new Date(0).toISOString());
  const exported: PersonExport = {
    exported_at: (stores.now?.() ?? new Date()).toISOString(),
    tenant_id: stores.tenantId,
    entity,
    records,
    work,
    accounts,
    audit,
  };
  await stores.auditLog.write(
    adminEvent(stores, 'people-export', entityId, [entityId, ...entity.roles.map((role) => role.id)]),
  );
  return exported;
}

export interface Erasure {
  records: { group: string; id: string }[];
  accounts: string[];
  /** Tutors that had the person's students in their care: changed, or deleted when it was their only one. */
  tutorsChanged: string[];
  tutorsDeleted: string[];
}

/** The tutors in whose care a student is (the student item's internal set). */
async function tutorsCaringFor(stores: PeopleStores, studentId: string): Promise<string[]> {
  const { Item } = await stores.db.send(
    new GetCommand({
      TableName: stores.tableName,
      Key: keys.record('students', studentId),
      ConsistentRead: true,
    }),
  );
  const tutors = Item?.[internal.tutors] as Set<string> | undefined;
  return [...(tutors ?? [])].sort();
}

/** Takes a student out of a tutor's care: the tutor without it, or no tutor when it was the only one. */
async function releaseStudent(
  stores: PeopleStores,
  tutorId: string,
  studentId: string,
  erasure: Erasure,
): Promise<void> {
  const tutor = (await stores.records.get('tutors', tutorId))?.record as Tutor | undefined;
  if (!tutor) return;
  const remaining = tutor.student_ids.filter((id) => id !== studentId);
  if (remaining.length === 0) {
    await stores.writer.remove('tutors', tutorId);
    erasure.tutorsDeleted.push(tutorId);
    return;
  }
  const { tutor_id: _id, created_at: _created, updated_at: _updated, ...fields } = tutor;
  await stores.writer.replace('tutors', tutorId, {
    ...fields,
    student_ids: remaining,
  } as InsertRequest<'tutors'>);
  erasure.tutorsChanged.push(tutorId);
}

/**
 * Every item of a table partition that passes a filter, read page by page with strongly consistent
 * Queries (never a Scan): the CLI's look-ups of what names a person.
 */
async function filteredPartition(
  stores: PeopleStores,
  pk: string,
  filter: string,
  values: Record<string, unknown>,
): Promise<Record<string, unknown>[]> {
  const found: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await stores.db.send(
      new QueryCommand({
        TableName: stores.tableName,
        KeyConditionExpression: 'pk = :pk',
        FilterExpression: filter,
        ExpressionAttributeValues: { ':pk': pk, ...values },
        ExclusiveStartKey: start,
        ConsistentRead: true,
      }),
    );
    found.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start);
  return found;
}

/** Every item of a table partition that names a user, by its user_id attribute. */
const itemsOfUser = (stores: PeopleStores, pk: string, user: User) =>
  filteredPartition(stores, pk, 'user_id = :user', { ':user': user.user_id });

type Action = NonNullable<ConstructorParameters<typeof TransactWriteCommand>[0]['TransactItems']>[number];

/**
 * The end of the second `at` falls in: verifiers compare a sign-out with a token's issue time at whole
 * seconds, honouring a token of the sign-out's own second, and a gone account is issued nothing after.
 */
const endOfSecond = (at: Date) => new Date(Math.floor(at.getTime() / 1000) * 1000 + 1000).toISOString();

/**
 * What ending an account takes besides deleting the account item: its login names, sign-on sessions,
 * refresh tokens, codes and sign-in counter deleted, and its sign-ins marked revoked. A sign-in's family
 * is not deleted: writes and /api/sso/me refuse an access token whose family is revoked, and one that is
 * missing is a sign-in of a client without refresh tokens. The mark keeps no personal data (not even
 * the user id) and goes when the family would have; a sign-in known only from its code (a client without
 * refresh tokens writes no family) is marked until the last access token from it has expired. The account
 * is recorded as signed out (revocation-repository.ts), so the verifiers of every route refuse its
 * access tokens within seconds, from whatever sign-in, even one whose code has gone already: that item
 * holds the account's random id and the time only, and goes a day after. Which items are the account's,
 * and how each ends, is read off the person-owned kinds of shared/data/item-kinds.ts.
 */
async function accountActions(stores: PeopleStores, user: User, now: Date): Promise<Action[]> {
  const { db, tableName } = stores;
  const remove = (Key: Key): Action => ({ Delete: { TableName: tableName, Key } });
  const signedOut = revocationItems.account(user.user_id, endOfSecond(now));
  const revoked = (familyId: string, ttl: unknown): Action => ({
    Put: {
      TableName: tableName,
      Item: { ...keys.refreshFamily(familyId), status: 'revoked', revoked_at: now.toISOString(), ttl },
    },
  });
  const itemsOf = (kind: PersonKind) => itemsOfUser(stores, kind.partition, user);
  const codes = await itemsOf(itemKinds.authorizationCode);
  type Ending = { deletes?: Action[]; revokes?: Record<string, unknown>[] };
  const rules: Record<PersonErasure, (kind: PersonKind) => Promise<Ending>> = {
    // The account item goes last, on its own (endAccount).
    account: async () => ({}),
    'login-names': async () => ({
      deletes: [user.username, ...(user.email ? [user.email] : [])].map((name) => remove(keys.login(name))),
    }),
    'by-user-id': async (kind) => ({
      deletes: (kind === itemKinds.authorizationCode ? codes : await itemsOf(kind)).map(({ pk, sk }) =>
        remove({ pk, sk } as Key),
      ),
    }),
    'revoke-by-user-id': async (kind) => ({ revokes: await itemsOf(kind) }),
    'account-counter': async () => ({
      deletes: [remove(keys.signInThrottle(accountThrottleSubject(user.user_id)))],
    }),
    expires: async () => ({}),
  };
  const ended = await Promise.all(
    allItemKinds.flatMap(([, kind]) => (kind.owner === 'person' ? [rules[kind.erasure](kind)] : [])),
  );
  const families = ended.flatMap((end) => end.revokes ?? []);
  const familyIds = new Set(families.map((family) => family.sk as string));
  const codeFamilies = new Map(
    codes
      .filter((code) => !familyIds.has(code.family_id as string))
      .map((code) => [
        code.family_id as string,
        timeToLive(code.expires_at as string) + LONGEST_ACCESS_TOKEN_SECONDS,
      ]),
  );
  return [
    ...ended.flatMap((end) => end.deletes ?? []),
    { Put: new ItemStore(db, tableName).putInput(itemKinds.revocation, signedOut.key, signedOut.attributes) },
    ...families.map((family) => revoked(family.sk as string, family.ttl)),
    ...[...codeFamilies].map(([familyId, ttl]) => revoked(familyId, ttl)),
  ];
}

/** DynamoDB takes at most 100 items a transaction; the account item goes in the last one. */
const TRANSACTION_ITEMS = 100;

async function endAccount(stores: PeopleStores, user: User, now: Date): Promise<void> {
  const actions = [
    ...(await accountActions(stores, user, now)),
    { Delete: { TableName: stores.tableName, Key: keys.user(user.user_id) } },
  ];
  for (let i = 0; i < actions.length; i += TRANSACTION_ITEMS) {
    await stores.db.send(
      new TransactWriteCommand({ TransactItems: actions.slice(i, i + TRANSACTION_ITEMS) }),
    );
  }
}

/**
 * The kept first responses of POSTs with an Idempotency-Key (shared/records/idempotency.ts) about a
 * person: each names the records and people its response held. They live 24 hours; a Query of each
 * person group's few items.
 */
async function idempotencyItemsOf(stores: PeopleStores, entityId: string): Promise<Key[]> {
  const found: Key[] = [];
  for (const group of ['entities', ...roleGroups] satisfies RecordGroup[]) {
    const items = await filteredPartition(
      stores,
      keys.idempotencyPartition(group),
      'contains(entity_ids, :entity)',
      {
        ':entity': entityId,
      },
    );
    found.push(...items.map(({ pk, sk }) => ({ pk, sk }) as Key));
  }
  return found;
}

/** The person's entity, if it is still there; an organisation is refused. */
async function personEntity(records: RecordRepository, entityId: string): Promise<Entity | undefined> {
  const entity = (await records.get('entities', entityId))?.record;
  if (entity && entity.entity_type !== 'person')
    throw new UsageError(`entity ${entityId} is an organisation, not a person.`);
  return entity;
}

/**
 * Erases a person. Refuses, changing nothing, while a student record of theirs is in a tutor's care,
 * unless `force`: then each such tutor is changed to drop the student first (or deleted, when the student
 * was the only one in its care, since a tutor of nobody is refused by the API). The audit event is
 * written however it ends once anything was changed: a failure part-way is recorded with outcome 500,
 * naming what was erased before it, and a second run finishes the erase.
 */
export async function erasePerson(stores: PeopleStores, entityId: string, force: boolean): Promise<Erasure> {
  const now = stores.now?.() ?? new Date();
  const entity = await personEntity(stores.records, entityId);
  const accounts = await accountsOf(stores.users, entityId);
  const kept = await idempotencyItemsOf(stores, entityId);
  if (!entity && accounts.length === 0 && kept.length === 0)
    throw new UsageError(`there is no entity ${entityId}.`);
  const erasure: Erasure = { records: [], accounts: [], tutorsChanged: [], tutorsDeleted: [] };
  const blocking = entity ? await studentsInOthersCare(stores, entity) : [];
  if (blocking.length > 0 && !force) {
    throw new UsageError(
      `student ${blocking.map((b) => b.id).join(', ')} is in the care of tutor ${[
        ...new Set(blocking.flatMap((b) => b.tutors)),
      ].join(', ')}; change those tutors first, or erase with --force to take the student out of their care.`,
    );
  }
  const recordIds = () => erasure.records.map((r) => r.id);
  try {
    // Accounts first: their sign-ins are revoked before anything else changes.
    for (const user of accounts) {
      await endAccount(stores, user, now);
      erasure.accounts.push(user.username);
    }
    if (entity) await eraseRecords(stores, entity, blocking, erasure);
    for (const key of kept) {
      await stores.db.send(new DeleteCommand({ TableName: stores.tableName, Key: key }));
    }
  } catch (error) {
    await stores.auditLog.write(adminEvent(stores, 'people-erase', entityId, recordIds(), 500));
    throw error;
  }
  await stores.auditLog.write(adminEvent(stores, 'people-erase', entityId, recordIds()));
  return erasure;
}

/** The person's student records in the care of tutors other than their own, with those tutors. */
async function studentsInOthersCare(stores: PeopleStores, entity: Entity) {
  const cared = await Promise.all(
    idsOfRole(entity, 'student').map(async (id) => ({ id, tutors: await tutorsCaringFor(stores, id) })),
  );
  // The person's own tutor records are deleted below; only other tutors keep them from being erased.
  const ownTutors = new Set(idsOfRole(entity, 'tutor'));
  return cared
    .map(({ id, tutors }) => ({ id, tutors: tutors.filter((t) => !ownTutors.has(t)) }))
    .filter(({ tutors }) => tutors.length > 0);
}

/**
 * A student's results or attendance in the classes their entity is a student of, found from its
 * enrollment list (the listing, by class and student), and their whole days' attendance (the empty
 * class's range): their grades and attendance are their data, and they name the student.
 */
async function studentWorkOf(stores: PeopleStores, entity: Entity, listing: StudentWork): Promise<string[]> {
  const list = (await stores.records.enrollmentLists('entities', [entity.entity_id])).get(entity.entity_id);
  const classIds = studentOf(list?.entries ?? []);
  const ranges = idsOfRole(entity, 'student').flatMap((studentId) =>
    rangesOfStudent(listing, studentId, classIds),
  );
  return (await stores.records.studentWorkOfClasses(listing, ranges)).map((entry) => entry.recordId);
}

/** A student's results in assessments: their range of the listing by student. */
const assessmentResultsOf = (stores: PeopleStores, entity: Entity): Promise<string[]> =>
  stores.records.assessmentResultsOfStudents(idsOfRole(entity, 'student'));

/**
 * Deletes the person's results, assessment results and attendance, role records, their students' tutors' hold on them, and
 * then the entity.
 */
async function eraseRecords(
  stores: PeopleStores,
  entity: Entity,
  blocking: { id: string; tutors: string[] }[],
  erasure: Erasure,
): Promise<void> {
  // Tutor records first: they name students, and a named student cannot be deleted.
  for (const tutorId of idsOfRole(entity, 'tutor')) {
    await stores.writer.remove('tutors', tutorId);
    erasure.records.push({ group: 'tutors', id: tutorId });
  }
  for (const { id, tutors } of blocking) {
    for (const tutorId of tutors) await releaseStudent(stores, tutorId, id, erasure);
  }
  for (const listing of studentWork) {
    for (const id of await studentWorkOf(stores, entity, listing)) {
      await stores.writer.remove(listing, id);
      erasure.records.push({ group: listing, id });
    }
  }
  for (const id of await assessmentResultsOf(stores, entity)) {
    await stores.writer.remove('assessment_results', id);
    erasure.records.push({ group: 'assessment_results', id });
  }
  for (const group of roleGroups.filter((g) => g !== 'tutors')) {
    for (const id of idsOfRole(entity, roleName(group))) {
      await stores.writer.remove(group, id);
      erasure.records.push({ group, id });
    }
  }
  // The last role record leaves the entity without roles; it goes in a transaction of its own.
  await stores.writer.remove('entities', entity.entity_id);
  erasure.records.push({ group: 'entities', id: entity.entity_id });
}
