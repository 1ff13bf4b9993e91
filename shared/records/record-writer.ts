// Creates, replaces and deletes records. Every write is one DynamoDB transaction holding the record,
// its processnumber claim, its group's counter, its entity's roles, a tutor's links to its students and
// the deletion records, so no failure leaves them disagreeing. Versions make writes conditional: a
// stale If-Match gets 412, and a write that raced another is retried from a fresh read.
import { randomUUID } from 'node:crypto';
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { type DynamoDBDocumentClient, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { keys } from '../data/keys';
import {
  countChange,
  etag,
  type Item,
  internal,
  recordItem,
  type StoredRecord,
  toRecord,
} from '../data/record-items';
import type { RecordRepository } from '../data/record-repository';
import { tableDesign } from '../data/table';
import { idFields, isRoleGroup, type RecordGroup, type RoleGroup, roleName } from '../domain/groups';
import { BadRequestError, ConflictError, PreconditionFailedError } from '../http/errors';
import { type EntityTagCondition, matches } from '../http/preconditions';
import type { Entity, GroupRecords } from '../schemas/records';
import { type IdentificationDocumentInsertRequest, type InsertRequest, LIMITS } from '../schemas/requests';
import { missingRecord } from './missing-record';

/** How long deletions stay listed at /deleted and a deleted id answers 410. */
export const DELETION_RETENTION_DAYS = 90;
const MAX_ATTEMPTS = 12;

type TransactItem = NonNullable<
  ConstructorParameters<typeof TransactWriteCommand>[0]['TransactItems']
>[number];

/** Says what a failed condition means: an error for the client, or a race to retry. */
type OnConditionFailed = (current: Item | undefined) => Error | typeof RETRY;

interface Step {
  action: TransactItem;
  onConditionFailed?: OnConditionFailed;
}

const RETRY = Symbol('retry');

/** A tutor's students; no other record has any. */
const studentIds = (record: object): string[] =>
  'student_ids' in record && Array.isArray(record.student_ids) ? (record.student_ids as string[]) : [];

class Retry extends Error {}

export class RecordWriter {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly records: RecordRepository,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  async create<G extends RecordGroup>(group: G, input: InsertRequest<G>): Promise<StoredRecord<G>> {
    return this.retrying(async () => {
      const now = this.clock().toISOString();
      const id = randomUUID();
      if (!isRoleGroup(group)) {
        const entity = {
          entity_id: id,
          ...(input as InsertRequest<'entities'>),
          roles: [],
          created_at: now,
          updated_at: now,
        };
        const item = recordItem('entities', entity, 1);
        await this.commit([this.putNew(item), this.count('entities', 1)]);
        return { record: toRecord(group, item), version: 1 };
      }
      const { entity_id: joining, ...fields } = input as InsertRequest<RoleGroup>;
      const entityId = joining ?? randomUUID();
      const record = {
        [idFields[group]]: id,
        ...fields,
        entity_id: entityId,
        created_at: now,
        updated_at: now,
      } as unknown as GroupRecords[G];
      const item = recordItem(group, record, 1);
      const role = { role: roleName(group), id };
      const steps: Step[] = [
        this.putNew(item),
        this.claimProcessnumber(group, fields.processnumber, id),
        this.count(group, 1),
        ...(joining
          ? [this.joinEntity(joining, role, now)]
          : this.newPersonEntity(entityId, fields, role, now)),
        ...this.linkStudents(group, id, studentIds(record), []),
      ];
      await this.commit(steps);
      return { record: toRecord(group, item), version: 1 };
    });
  }

  async replace<G extends RecordGroup>(
    group: G,
    id: string,
    input: InsertRequest<G>,
    ifMatch?: EntityTagCondition,
  ): Promise<StoredRecord<G>> {
    return this.modify(group, id, ifMatch, (current) => {
      if (group === 'entities') {
        const entity = current as Entity;
        const next = input as InsertRequest<'entities'>;
        if (next.entity_type !== entity.entity_type && entity.roles.length > 0) {
          throw new ConflictError('An entity with roles stays a person.', [
            { name: 'entity_type', in: 'body', reason: 'the entity has roles' },
          ]);
        }
        return { ...next, entity_id: entity.entity_id, roles: entity.roles } as unknown as GroupRecords[G];
      }
      const { entity_id: entityId, ...fields } = input as InsertRequest<RoleGroup>;
      const currentEntity = (current as GroupRecords[RoleGroup]).entity_id;
      if (entityId !== undefined && entityId !== currentEntity) {
        throw new ConflictError('A record stays with the entity it was created for.', [
          { name: 'entity_id', in: 'body', reason: `must be ${currentEntity} or left out` },
        ]);
      }
      return { [idFields[group]]: id, ...fields, entity_id: currentEntity } as unknown as GroupRecords[G];
    });
  }

  async addDocument<G extends RecordGroup>(
    group: G,
    id: string,
    document: IdentificationDocumentInsertRequest,
    ifMatch?: EntityTagCondition,
  ): Promise<StoredRecord<G>> {
    return this.modify(group, id, ifMatch, (current) => {
      if (current.documents.length >= LIMITS.listItems) {
        throw new ConflictError(`The record holds the most documents it can (${LIMITS.listItems}).`);
      }
      return { ...current, documents: [...current.documents, document] };
    });
  }

  async remove(group: RecordGroup, id: string, ifMatch?: EntityTagCondition): Promise<void> {
    await this.retrying(async () => {
      const { item, version } = await this.current(group, id, ifMatch);
      const now = this.clock().toISOString();
      const record = toRecord(group, item);
      const steps: Step[] = [
        {
          action: {
            Delete: {
              TableName: this.tableName,
              Key: keys.record(group, id),
              ConditionExpression: [
                '#v = :v',
                ...(group === 'students' ? ['attribute_not_exists(#tutors)'] : []),
                ...(group === 'entities' ? ['size(#roles) = :none'] : []),
              ].join(' AND '),
              ExpressionAttributeNames: {
                '#v': internal.version,
                ...(group === 'students' ? { '#tutors': internal.tutors } : {}),
                ...(group === 'entities' ? { '#roles': 'roles' } : {}),
              },
              ExpressionAttributeValues: { ':v': version, ...(group === 'entities' ? { ':none': 0 } : {}) },
              ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
            },
          },
          onConditionFailed: (old) => {
            if (!old) return RETRY;
            if (group === 'students' && old[internal.tutors]) {
              return new ConflictError(
                'The student is still in the care of tutors; change or delete those tutors first.',
              );
            }
            if (group === 'entities' && Array.isArray(old.roles) && old.roles.length > 0) {
              return new ConflictError(
                'The entity still has roles; delete its student, teacher, tutor or staff records first.',
              );
            }
            return ifMatch ? new PreconditionFailedError(etag(Number(old[internal.version]))) : RETRY;
          },
        },
        this.count(group, -1),
        ...this.recordDeletion(group, id, now),
      ];
      if (isRoleGroup(group)) {
        const role = record as GroupRecords[RoleGroup];
        steps.push(this.releaseProcessnumber(group, role.processnumber, id));
        steps.push(await this.leaveEntity(role.entity_id, id, now));
        steps.push(...this.linkStudents(group, id, [], studentIds(record)));
      }
      await this.commit(steps);
    });
  }

  /** Reads a record, lets `change` produce its next fields, and writes it as the next version. */
  private async modify<G extends RecordGroup>(
    group: G,
    id: string,
    ifMatch: EntityTagCondition | undefined,
    change: (current: GroupRecords[G]) => GroupRecords[G],
  ): Promise<StoredRecord<G>> {
    return this.retrying(async () => {
      const { item, version } = await this.current(group, id, ifMatch);
      const current = toRecord(group, item);
      const now = this.clock().toISOString();
      const changed = change(current);
      const next = { ...changed, created_at: current.created_at, updated_at: now } as GroupRecords[G];
      const nextItem = {
        ...recordItem(group, next, version + 1),
        ...(item[internal.tutors] ? { [internal.tutors]: item[internal.tutors] } : {}),
      };
      const steps: Step[] = [
        {
          action: {
            Put: {
              TableName: this.tableName,
              Item: nextItem,
              ConditionExpression: '#v = :v',
              ExpressionAttributeNames: { '#v': internal.version },
              ExpressionAttributeValues: { ':v': version },
              ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
            },
          },
          onConditionFailed: (old) =>
            old && ifMatch ? new PreconditionFailedError(etag(Number(old[internal.version]))) : RETRY,
        },
      ];
      if (isRoleGroup(group)) {
        const before = current as GroupRecords[RoleGroup];
        const after = next as GroupRecords[RoleGroup];
        if (before.processnumber !== after.processnumber) {
          steps.push(this.releaseProcessnumber(group, before.processnumber, id));
          steps.push(this.claimProcessnumber(group, after.processnumber, id));
        }
        steps.push(...this.linkStudents(group, id, studentIds(next), studentIds(current)));
      }
      await this.commit(steps);
      return { record: toRecord(group, nextItem), version: version + 1 };
    });
  }

  /** The record as stored, or the error a client should see: 404, 410 or 412. */
  private async current(group: RecordGroup, id: string, ifMatch: EntityTagCondition | undefined) {
    const stored = await this.records.getItem(group, id);
    if (!stored) return missingRecord(this.records, group, id);
    const version = Number(stored[internal.version] ?? 1);
    if (ifMatch && !matches(ifMatch, version)) throw new PreconditionFailedError(etag(version));
    return { item: stored, version };
  }

  private putNew(item: Item): Step {
    return {
      action: {
        Put: { TableName: this.tableName, Item: item, ConditionExpression: 'attribute_not_exists(pk)' },
      },
      onConditionFailed: () => RETRY,
    };
  }

  private count(group: RecordGroup, by: number): Step {
    return { action: countChange(this.tableName, group, by) };
  }

  private claimProcessnumber(group: RecordGroup, processnumber: string, id: string): Step {
    return {
      action: {
        Put: {
          TableName: this.tableName,
          Item: { ...keys.processnumber(group, processnumber), id },
          ConditionExpression: 'attribute_not_exists(pk)',
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        },
      },
      onConditionFailed: (old) =>
        new ConflictError(`processnumber ${processnumber} belongs to another ${group} record.`, [
          {
            name: 'processnumber',
            in: 'body',
            reason: `taken by ${idFields[group]} ${String(old?.id ?? 'another record')}`,
          },
        ]),
    };
  }

  private releaseProcessnumber(group: RecordGroup, processnumber: string, id: string): Step {
    return {
      action: {
        Delete: {
          TableName: this.tableName,
          Key: keys.processnumber(group, processnumber),
          ConditionExpression: 'id = :id',
          ExpressionAttributeValues: { ':id': id },
        },
      },
      onConditionFailed: () => RETRY,
    };
  }

  private newPersonEntity(
    entityId: string,
    person: Omit<InsertRequest<RoleGroup>, 'entity_id'>,
    role: Entity['roles'][number],
    now: string,
  ): Step[] {
    const { name, email, addresses, contacts, documents, bankAccounts } = person;
    const entity: Entity = {
      entity_id: entityId,
      entity_type: 'person',
      name,
      email,
      addresses,
      contacts,
      documents,
      bankAccounts,
      roles: [role],
      created_at: now,
      updated_at: now,
    };
    return [this.putNew(recordItem('entities', entity, 1)), this.count('entities', 1)];
  }

  private joinEntity(entityId: string, role: Entity['roles'][number], now: string): Step {
    return {
      action: {
        Update: {
          TableName: this.tableName,
          Key: keys.record('entities', entityId),
          UpdateExpression:
            'SET #roles = list_append(#roles, :role), updated_at = :now, #cs = :cs ADD #v :one',
          ConditionExpression: 'attribute_exists(pk) AND entity_type = :person',
          ExpressionAttributeNames: {
            '#roles': 'roles',
            '#cs': tableDesign.changesIndex.sortKey,
            '#v': internal.version,
          },
          ExpressionAttributeValues: {
            ':role': [role],
            ':now': now,
            ':cs': keys.changeSort(now, entityId),
            ':one': 1,
            ':person': 'person',
          },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        },
      },
      onConditionFailed: (old) =>
        new BadRequestError('entity_id does not name a person entity.', [
          {
            name: 'entity_id',
            in: 'body',
            reason: old ? 'the entity is an organisation' : 'no entity has this id',
          },
        ]),
    };
  }

  private async leaveEntity(entityId: string, roleId: string, now: string): Promise<Step> {
    const entity = await this.records.getItem('entities', entityId);
    const roles = (entity?.roles ?? []) as Entity['roles'];
    const index = roles.findIndex((r) => r.id === roleId);
    if (!entity || index < 0) throw new Retry();
    return {
      action: {
        Update: {
          TableName: this.tableName,
          Key: keys.record('entities', entityId),
          UpdateExpression: `REMOVE #roles[${index}] SET updated_at = :now, #cs = :cs ADD #v :one`,
          ConditionExpression: '#v = :v',
          ExpressionAttributeNames: {
            '#roles': 'roles',
            '#cs': tableDesign.changesIndex.sortKey,
            '#v': internal.version,
          },
          ExpressionAttributeValues: {
            ':now': now,
            ':cs': keys.changeSort(now, entityId),
            ':one': 1,
            ':v': entity[internal.version],
          },
        },
      },
      onConditionFailed: () => RETRY,
    };
  }

  /** Keeps each student's set of tutors in step with a tutor's student_ids; added students must exist. */
  private linkStudents(group: RecordGroup, tutorId: string, after: string[], before: string[]): Step[] {
    if (group !== 'tutors') return [];
    const added = after.filter((s) => !before.includes(s));
    const removed = before.filter((s) => !after.includes(s));
    return [
      ...added.map((studentId) => ({
        action: {
          Update: {
            TableName: this.tableName,
            Key: keys.record('students', studentId),
            UpdateExpression: 'ADD #tutors :tutor',
            ConditionExpression: 'attribute_exists(pk)',
            ExpressionAttributeNames: { '#tutors': internal.tutors },
            ExpressionAttributeValues: { ':tutor': new Set([tutorId]) },
          },
        },
        onConditionFailed: () =>
          new BadRequestError('student_ids names a student that does not exist.', [
            { name: 'student_ids', in: 'body', reason: `no student has student_id ${studentId}` },
          ]),
      })),
      ...removed.map((studentId) => ({ action: this.unlinkStudent(studentId, tutorId) })),
    ];
  }

  private unlinkStudent(studentId: string, tutorId: string): TransactItem {
    return {
      Update: {
        TableName: this.tableName,
        Key: keys.record('students', studentId),
        UpdateExpression: 'DELETE #tutors :tutor',
        ExpressionAttributeNames: { '#tutors': internal.tutors },
        ExpressionAttributeValues: { ':tutor': new Set([tutorId]) },
      },
    };
  }

  private recordDeletion(group: RecordGroup, id: string, now: string): Step[] {
    const ttl = Math.floor(Date.parse(now) / 1000) + DELETION_RETENTION_DAYS * 86_400;
    return [
      {
        action: {
          Put: {
            TableName: this.tableName,
            Item: { ...keys.deletion(group, now, id), [idFields[group]]: id, deleted_at: now, ttl },
          },
        },
      },
      {
        action: {
          Put: { TableName: this.tableName, Item: { ...keys.gone(group, id), deleted_at: now, ttl } },
        },
      },
    ];
  }

  private async commit(steps: Step[]): Promise<void> {
    try {
      await this.db.send(new TransactWriteCommand({ TransactItems: steps.map((s) => s.action) }));
    } catch (error) {
      if (!(error instanceof TransactionCanceledException)) throw error;
      const reasons = error.CancellationReasons ?? [];
      for (const [i, reason] of reasons.entries()) {
        if (reason.Code !== 'ConditionalCheckFailed') continue;
        const outcome =
          steps[i]?.onConditionFailed?.(reason.Item ? unmarshall(reason.Item) : undefined) ?? RETRY;
        if (outcome !== RETRY) throw outcome;
      }
      throw new Retry();
    }
  }

  /** Runs a write until it commits; races with other writers are retried with jittered backoff. */
  private async retrying<T>(attempt: () => Promise<T>): Promise<T> {
    for (let n = 1; ; n++) {
      try {
        return await attempt();
      } catch (error) {
        if (!(error instanceof Retry) || n >= MAX_ATTEMPTS) throw error;
        await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(500, 10 * 2 ** n)));
      }
    }
  }
}
