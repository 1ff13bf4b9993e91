// A person's data on request (GDPR articles 15 and 17; FERPA's right to inspect): `people export` gathers
// every record about a person (their entity, their student, teacher, tutor and staff records, their
// sign-in accounts without password hashes, and the audit trail of their records) into one document;
// `people erase` deletes the records through the record writer (one transaction each, so roles, claims,
// counters and links stay consistent), then each account with its login names, sign-ins (refresh
// families), refresh tokens, unredeemed codes and sign-in counters in transactions of its own.

import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { GetCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { AuditEvent } from '../../../shared/audit/audit-event';
import type { AuditLog } from '../../../shared/audit/audit-log';
import { idsOfRole } from '../../../shared/auth/reach';
import { type Key, keys } from '../../../shared/data/keys';
import { internal } from '../../../shared/data/record-items';
import type { RecordRepository } from '../../../shared/data/record-repository';
import { accountThrottleSubject } from '../../../shared/data/sign-in-throttle-repository';
import type { User, UserRepository } from '../../../shared/data/user-repository';
import { type RoleGroup, roleGroups, roleName } from '../../../shared/domain/groups';
import type { RecordWriter } from '../../../shared/records/record-writer';
import type { Entity, GroupRecords, Tutor } from '../../../shared/schemas/records';
import type { InsertRequest } from '../../../shared/schemas/requests';
import type { AuditSource } from './audit';
import { auditOfPerson } from './audit';
import { UsageError } from './usage-error';

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

/** An account as the person's export shows it: everything but the password hash. */
export type AccountSummary = Omit<User, 'password_hash'>;

export interface PersonExport {
  exported_at: string;
  tenant_id: string;
  entity: Entity;
  /** Their records of every role group, with every value (documents and bank accounts unmasked). */
  records: { [G in RoleGroup]: GroupRecords[G][] };
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
    outcome: 200,
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
  const accounts = (await accountsOf(stores.users, entityId)).map(
    ({ password_hash: _hash, ...account }) => account,
  );
  const audit = await auditOfPerson(stores.auditSource, entityId, new Date(0).toISOString());
  const exported: PersonExport = {
    exported_at: (stores.now?.() ?? new Date()).toISOString(),
    tenant_id: stores.tenantId,
    entity,
    records,
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

/** Every table item of an account beyond the account itself: login names, sign-ins, tokens, codes. */
async function accountItems(stores: PeopleStores, user: User): Promise<Key[]> {
  const ofUser = async (pk: string, sk: (item: Record<string, unknown>) => Key) => {
    const found: Key[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const page = await stores.db.send(
        new QueryCommand({
          TableName: stores.tableName,
          KeyConditionExpression: 'pk = :pk',
          FilterExpression: 'user_id = :user',
          ExpressionAttributeValues: { ':pk': pk, ':user': user.user_id },
          ExclusiveStartKey: start,
          ConsistentRead: true,
        }),
      );
      found.push(...(page.Items ?? []).map(sk));
      start = page.LastEvaluatedKey;
    } while (start);
    return found;
  };
  return [
    ...[user.username, ...(user.email ? [user.email] : [])].map((name) => keys.login(name)),
    ...(await ofUser(keys.refreshFamilyPartition, (item) => keys.refreshFamily(item.family_id as string))),
    ...(await ofUser(keys.refreshTokenPartition, (item) => keys.refreshToken(item.token_hash as string))),
    ...(await ofUser(keys.authorizationCodePartition, (item) =>
      keys.authorizationCode(item.code_hash as string),
    )),
    keys.signInThrottle(accountThrottleSubject(user.user_id)),
  ];
}

/** DynamoDB takes at most 100 items a transaction; the account item goes in the last one. */
const TRANSACTION_ITEMS = 100;

async function deleteAccount(stores: PeopleStores, user: User): Promise<void> {
  const items = [...(await accountItems(stores, user)), keys.user(user.user_id)];
  for (let i = 0; i < items.length; i += TRANSACTION_ITEMS) {
    await stores.db.send(
      new TransactWriteCommand({
        TransactItems: items
          .slice(i, i + TRANSACTION_ITEMS)
          .map((Key) => ({ Delete: { TableName: stores.tableName, Key } })),
      }),
    );
  }
}

/**
 * Erases a person. Refuses, changing nothing, while a student record of theirs is in a tutor's care,
 * unless `force`: then each such tutor is changed to drop the student first (or deleted, when the student
 * was the only one in its care, since a tutor of nobody is refused by the API).
 */
export async function erasePerson(stores: PeopleStores, entityId: string, force: boolean): Promise<Erasure> {
  const entity = await entityOf(stores.records, entityId);
  const erasure: Erasure = { records: [], accounts: [], tutorsChanged: [], tutorsDeleted: [] };
  const students = idsOfRole(entity, 'student');
  const cared = await Promise.all(
    students.map(async (id) => ({ id, tutors: await tutorsCaringFor(stores, id) })),
  );
  // The person's own tutor records are deleted below; only other tutors keep them from being erased.
  const ownTutors = new Set(idsOfRole(entity, 'tutor'));
  const blocking = cared
    .map(({ id, tutors }) => ({ id, tutors: tutors.filter((t) => !ownTutors.has(t)) }))
    .filter(({ tutors }) => tutors.length > 0);
  if (blocking.length > 0 && !force) {
    throw new UsageError(
      `student ${blocking.map((b) => b.id).join(', ')} is in the care of tutor ${[
        ...new Set(blocking.flatMap((b) => b.tutors)),
      ].join(', ')}; change those tutors first, or erase with --force to take the student out of their care.`,
    );
  }
  // Tutor records first: they name students, and a named student cannot be deleted.
  for (const tutorId of idsOfRole(entity, 'tutor')) {
    await stores.writer.remove('tutors', tutorId);
    erasure.records.push({ group: 'tutors', id: tutorId });
  }
  for (const { id, tutors } of blocking) {
    for (const tutorId of tutors) await releaseStudent(stores, tutorId, id, erasure);
  }
  for (const group of roleGroups.filter((g) => g !== 'tutors')) {
    for (const id of idsOfRole(entity, roleName(group))) {
      await stores.writer.remove(group, id);
      erasure.records.push({ group, id });
    }
  }
  // The last role record leaves the entity without roles; it goes in a transaction of its own.
  if (await stores.records.get('entities', entityId)) {
    await stores.writer.remove('entities', entityId);
  }
  erasure.records.push({ group: 'entities', id: entityId });
  for (const user of await accountsOf(stores.users, entityId)) {
    await deleteAccount(stores, user);
    erasure.accounts.push(user.username);
  }
  await stores.auditLog.write(
    adminEvent(
      stores,
      'people-erase',
      entityId,
      erasure.records.map((r) => r.id),
    ),
  );
  return erasure;
}
