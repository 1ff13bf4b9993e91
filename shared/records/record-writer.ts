// Creates, replaces and deletes records. Every write is one DynamoDB transaction holding the record,
// its processnumber claim, its group's counter, its entity's roles, a tutor's links to its students and
// the deletion records, so no failure leaves them disagreeing. Versions make writes conditional: a
// stale If-Match gets 412, and a write that raced another is retried from a fresh read. What each group's
// writes involve is in write-rules.ts, the items in write-steps.ts, the transaction in write-transaction.ts.
import { randomUUID } from 'node:crypto';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { subjectOf } from '../audit/audit-event';
import { classEntry, entriesOf, personEntry } from '../data/enrollment-entries';
import { keys } from '../data/keys';
import {
  carriedFrom,
  etag,
  type Item,
  internal,
  recordItem,
  type StoredRecord,
  toRecord,
} from '../data/record-items';
import { naturalKeyOf } from '../data/record-links';
import type { RecordRepository } from '../data/record-repository';
import { tombstoneOf } from '../data/tombstones';
import { InvalidInputError, StaleVersionError, StateConflictError } from '../domain/errors';
import {
  type DocumentGroup,
  groups,
  idFields,
  type RecordGroup,
  type Reference,
  treeReference,
} from '../domain/groups';
import { LIMITS } from '../domain/limits';
import { withArticle } from '../domain/words';
import { type EntityTagCondition, matches } from '../http/preconditions';
import type { GroupRecords } from '../schemas/records';
import type { IdentificationDocumentInsertRequest, InsertRequest } from '../schemas/requests';
import { missingRecord } from './missing-record';
import { mergeSteps, withChecks } from './transaction-packs';
import {
  claimSteps,
  enabledSteps,
  linkGuards,
  linkSteps,
  personRules,
  referenceGuards,
  referenceSteps,
  rolesGuard,
  type WriteContext,
} from './write-rules';
import { WriteSteps } from './write-steps';
import { commit, RETRY, retrying, type Step } from './write-transaction';

/** Steps a caller adds to a write's transaction (an idempotency key's response), given what it writes. */
export type AlsoWrite<G extends RecordGroup> = (written: StoredRecord<G>) => Step[];

/**
 * How many of a person's enrollments one transaction ends: each takes its record, its two deletion
 * items and at most one class update, so 20 stay inside DynamoDB's 100 actions with the person and counter.
 */
const ENROLLMENTS_ENDED_PER_TRANSACTION = 20;

/** The most actions DynamoDB takes in one transaction. */
export const MAX_TRANSACTION_ACTIONS = 100;

/**
 * How deep a tree goes: a district, its schools and their departments are three levels. A record is not
 * moved under a parent with more ancestors than this, as the cycle check walks no further.
 */
const MAX_TREE_DEPTH = 20;

/** A record is there under the id a create chose for it. */
const taken = (group: RecordGroup, id: string) =>
  new StateConflictError(
    `${groups[group].noun} ${id} exists already.`,
    [{ name: idFields[group], in: 'body', reason: `${withArticle(groups[group].noun)} has id ${id}` }],
    { field: idFields[group], id },
  );

const enrollmentReference = (group: 'classes' | 'entities'): Reference =>
  groups.enrollments.references.find((r) => r.group === group) as Reference;

export class RecordWriter {
  protected readonly steps: WriteSteps;

  constructor(
    protected readonly db: DynamoDBDocumentClient,
    tableName: string,
    /** The records it reads before writing, which the write routes also check the caller's reach with. */
    readonly records: RecordRepository,
    private readonly clock: () => Date = () => new Date(),
  ) {
    this.steps = new WriteSteps(tableName);
  }

  /**
   * Creates a record under a new id, or under `chosenId` (an import keeping its source's ids) if none has
   * it; `also` adds steps to its transaction, given the record as it will be stored. A ConditionCheck
   * among them joins the transaction's action on its item where it has one (withChecks).
   */
  async create<G extends RecordGroup>(
    group: G,
    input: InsertRequest<G>,
    also: AlsoWrite<G> = () => [],
    chosenId?: string,
  ): Promise<StoredRecord<G>> {
    return retrying(async () => {
      const id = chosenId ?? randomUUID();
      const { created, steps } = this.newRecord(group, input, id, this.context());
      // Under an id the caller chose, a record there is no race to try again: it is there (409).
      const [put, ...rest] = steps as [Step, ...Step[]];
      const made = chosenId === undefined ? put : { ...put, onConditionFailed: () => taken(group, id) };
      await commit(this.db, withChecks([...also(created), made, ...rest, this.steps.count(group, 1)]));
      return created;
    });
  }

  /**
   * Makes or replaces records of a group with a natural key (`naturalKey` in groups.ts), all in one
   * transaction or none (a class's register): a record whose key a request holds is replaced as its next
   * version, any other made under a new id. More than one transaction holds is refused (400). A key
   * another request claimed since it was read (the same register sent twice at once) is found again on
   * the next try, and its record replaced. `checks` are conditions the transaction also holds
   * (withChecks), each joining the action on its item where the transaction has one.
   */
  async putByNaturalKey<G extends RecordGroup>(
    group: G,
    inputs: readonly InsertRequest<G>[],
    checks: readonly Step[] = [],
  ): Promise<StoredRecord<G>[]> {
    const claims = keys.naturalKeyPartition(group);
    const claimRaced = (step: Step): Step =>
      step.action.Put?.Item?.pk === claims ? { ...step, onConditionFailed: () => RETRY } : step;
    return retrying(async () => {
      const context = this.context();
      const keyOf = (input: InsertRequest<G>) => naturalKeyOf(group, input) as string;
      const holders = await this.records.naturalKeyHolders(group, inputs.map(keyOf));
      const items = await this.records.getManyItems(group, [...holders.values()]);
      const planned = inputs.map((input) => {
        const id = holders.get(keyOf(input));
        const item = id === undefined ? undefined : items.get(id);
        if (id === undefined || item === undefined) {
          const { created, steps } = this.newRecord(group, input, randomUUID(), context);
          return { stored: created, made: true, steps: steps.map(claimRaced) };
        }
        const next = personRules[group].replace(toRecord(group, item), input, id, item);
        const { written, steps } = this.nextVersion(group, id, item, next, undefined, context.now);
        return { stored: written, made: false, steps };
      });
      const made = planned.filter((p) => p.made).length;
      const steps = withChecks([
        ...mergeSteps([
          ...planned.flatMap((p) => p.steps),
          ...(made > 0 ? [this.steps.count(group, made)] : []),
        ]),
        ...checks,
      ]);
      if (steps.length > MAX_TRANSACTION_ACTIONS) {
        throw new InvalidInputError(
          `These ${inputs.length} ${groups[group].plural} take ${steps.length} writes, more than the ${MAX_TRANSACTION_ACTIONS} of one transaction: send fewer at once.`,
        );
      }
      await commit(this.db, steps);
      return planned.map((p) => p.stored);
    });
  }

  /** A new record and every step of its transaction but its group's count. */
  protected newRecord<G extends RecordGroup>(
    group: G,
    input: InsertRequest<G>,
    id: string,
    context: WriteContext,
  ) {
    const { record, steps: person } = personRules[group].create(input, id, context);
    const item = recordItem(group, record, 1);
    const created: StoredRecord<G> = { record: toRecord(group, item), version: 1 };
    const steps: Step[] = [
      this.steps.putNew(item),
      ...claimSteps(this.steps, group, id, undefined, record),
      ...person,
      ...linkSteps(this.steps, group, id, undefined, record),
      ...referenceSteps(this.steps, group, id, undefined, record, context.now),
    ];
    return { created, steps };
  }

  /**
   * Replaces a record's fields with `input`, or with what `input` makes of the current record (a body
   * whose masked numbers are given back from it, or whose read-only fields are checked against it).
   */
  async replace<G extends RecordGroup>(
    group: G,
    id: string,
    input: InsertRequest<G> | ((current: GroupRecords[G]) => InsertRequest<G>),
    ifMatch?: EntityTagCondition,
  ): Promise<StoredRecord<G>> {
    let moved: Step[] = [];
    return this.modify(
      group,
      id,
      ifMatch,
      async (current, stored) => {
        const fields = typeof input === 'function' ? input(current) : input;
        moved = await this.refuseCycle(group, id, current, fields);
        return personRules[group].replace(current, fields, id, stored);
      },
      () => moved,
    );
  }

  async addDocument<G extends DocumentGroup>(
    group: G,
    id: string,
    document: IdentificationDocumentInsertRequest,
    ifMatch?: EntityTagCondition,
    also: AlsoWrite<G> = () => [],
  ): Promise<StoredRecord<G>> {
    return this.modify(
      group,
      id,
      ifMatch,
      (current) => {
        if (current.documents.length >= LIMITS.listItems) {
          throw new StateConflictError(`The record holds the most documents it can (${LIMITS.listItems}).`);
        }
        return { ...current, documents: [...current.documents, document] };
      },
      also,
    );
  }

  /** Deletes a record (a person's enrollments first); returns it as it was, for the request's audit event. */
  async remove<G extends RecordGroup>(
    group: G,
    id: string,
    ifMatch?: EntityTagCondition,
  ): Promise<GroupRecords[G]> {
    return retrying(async () => {
      // Again on every attempt: an enrollment made since the last one would otherwise fail each retry.
      if (group === 'entities') await this.endEnrollments(id, ifMatch);
      const { item, version } = await this.current(group, id, ifMatch);
      const context = this.context();
      const record = toRecord(group, item);
      const person = await personRules[group].remove(record, id, context);
      await commit(this.db, [
        this.steps.deleteVersion(
          group,
          id,
          version,
          [...linkGuards(group), ...referenceGuards(group), ...person.guards],
          ifMatch,
        ),
        this.steps.count(group, -1),
        ...this.steps.recordDeletion(group, id, context.now, tombstoneOf(group, record)),
        ...claimSteps(this.steps, group, id, record, undefined),
        ...person.steps,
        ...linkSteps(this.steps, group, id, record, undefined),
        ...referenceSteps(this.steps, group, id, record, undefined, context.now),
      ]);
      return record;
    });
  }

  /**
   * Deletes a person's enrollments, before the person: a batch a transaction, each taking the
   * enrollments out of their classes and the person's list and recording their deletion, until none is
   * left. A person who keeps roles is refused before any is ended.
   */
  private async endEnrollments(entityId: string, ifMatch: EntityTagCondition | undefined): Promise<void> {
    for (;;) {
      const done = await retrying(async () => {
        const { item } = await this.current('entities', entityId, ifMatch);
        const entries = entriesOf(item[internal.enrollments]);
        if (entries.length === 0) return true;
        if (Array.isArray(item.roles) && item.roles.length > 0) throw rolesGuard.refusal();
        const batch = entries.slice(0, ENROLLMENTS_ENDED_PER_TRANSACTION);
        const { now } = this.context();
        const byClass = new Map<string, string[]>();
        for (const { role, otherId: classId, enrollmentId } of batch) {
          const entry = classEntry({
            role,
            class_id: classId,
            entity_id: entityId,
            enrollment_id: enrollmentId,
          });
          byClass.set(classId, [...(byClass.get(classId) ?? []), entry]);
        }
        const steps: Step[] = [
          ...batch.flatMap(({ role, otherId: classId, enrollmentId }) => [
            this.steps.deleteExisting('enrollments', enrollmentId),
            ...this.steps.recordDeletion(
              'enrollments',
              enrollmentId,
              now,
              tombstoneOf('enrollments', { class_id: classId, entity_id: entityId, role }),
            ),
          ]),
          ...[...byClass].map(([classId, classEntries]) =>
            this.steps.enroll(enrollmentReference('classes'), classId, classEntries, false, now),
          ),
          this.steps.enroll(
            enrollmentReference('entities'),
            entityId,
            batch.map(({ role, otherId: classId, enrollmentId }) =>
              personEntry({ role, class_id: classId, entity_id: entityId, enrollment_id: enrollmentId }),
            ),
            false,
            now,
          ),
          this.steps.count('enrollments', -batch.length),
        ];
        await commit(this.db, steps);
        return entries.length <= batch.length;
      });
      if (done) return;
    }
  }

  /**
   * Refuses a parent that would make a record its own ancestor, or that sits deeper than
   * MAX_TREE_DEPTH: the tree above the new parent is walked as it is at the group's tree version, and the
   * write moves that version on (`treeMoved`), so a move committed meanwhile makes this one walk again.
   * A replace that keeps its parent moves nothing.
   */
  private async refuseCycle(group: RecordGroup, id: string, current: object, input: object): Promise<Step[]> {
    const reference = treeReference(group);
    if (!reference) return [];
    const field = reference.field;
    let parent = (input as Record<string, unknown>)[field];
    if (typeof parent !== 'string' || parent === (current as Record<string, unknown>)[field]) return [];
    const seen = await this.records.treeVersion(group);
    for (let depth = 0; typeof parent === 'string'; depth++) {
      if (parent === id) {
        throw new InvalidInputError(`${field} would make the ${groups[group].noun} its own ancestor.`, [
          { name: field, in: 'body', reason: 'names the record itself or one below it' },
        ]);
      }
      if (depth === MAX_TREE_DEPTH) {
        throw new InvalidInputError(
          `${field} names a ${groups[group].noun} more than ${MAX_TREE_DEPTH} levels deep.`,
          [{ name: field, in: 'body', reason: `must be at most ${MAX_TREE_DEPTH} levels from the top` }],
        );
      }
      const above = await this.records.get(group, parent);
      parent = above ? (above.record as Record<string, unknown>)[field] : undefined;
    }
    return [this.steps.treeMoved(group, seen)];
  }

  /** Reads a record, lets `change` produce its next fields, and writes it as the next version. */
  private async modify<G extends RecordGroup>(
    group: G,
    id: string,
    ifMatch: EntityTagCondition | undefined,
    change: (current: GroupRecords[G], stored: Item) => GroupRecords[G] | Promise<GroupRecords[G]>,
    also: AlsoWrite<G> = () => [],
  ): Promise<StoredRecord<G>> {
    return retrying(async () => {
      const { item } = await this.current(group, id, ifMatch);
      const next = await change(toRecord(group, item), item);
      const { written, steps } = this.nextVersion(group, id, item, next, ifMatch, this.clock().toISOString());
      // What the caller adds goes first: a retry that met a kept response answers with it, not with a 412.
      await commit(this.db, [...also(written), ...steps]);
      return written;
    });
  }

  /**
   * A record's next version, its fields `next` (stamped now), and the steps that write it over the item
   * as read: the put conditioned on that version, and what the change does to the records it names.
   */
  private nextVersion<G extends RecordGroup>(
    group: G,
    id: string,
    item: Item,
    fields: GroupRecords[G],
    ifMatch: EntityTagCondition | undefined,
    now: string,
  ): { written: StoredRecord<G>; steps: Step[] } {
    const version = Number(item[internal.version] ?? 1);
    const current = toRecord(group, item);
    const next = { ...fields, created_at: current.created_at, updated_at: now } as GroupRecords[G];
    // What other records' writes keep on this one (a student's tutors, what names a record) is
    // carried over as read; the put is conditional on it not having changed since.
    const nextItem = {
      ...recordItem(group, next, version + 1),
      ...carriedFrom(item),
    };
    const links = item[internal.links] === undefined ? undefined : Number(item[internal.links]);
    return {
      written: { record: toRecord(group, nextItem), version: version + 1 },
      steps: [
        this.steps.putNextVersion(nextItem, version, ifMatch, links),
        ...claimSteps(this.steps, group, id, current, next),
        ...linkSteps(this.steps, group, id, current, next),
        ...referenceSteps(this.steps, group, id, current, next, now),
        ...enabledSteps(this.steps, group, current, next, now),
      ],
    };
  }

  /** The record as stored, or the error a client should see: 404, 410 or 412. */
  private async current(group: RecordGroup, id: string, ifMatch: EntityTagCondition | undefined) {
    const stored = await this.records.getItem(group, id);
    if (!stored) return missingRecord(this.records, group, id);
    const version = Number(stored[internal.version] ?? 1);
    if (ifMatch && !matches(ifMatch, version)) {
      throw new StaleVersionError(etag(version), subjectOf(idFields[group], [stored]));
    }
    return { item: stored, version };
  }

  /** What the rules build an attempt's steps with, stamped now. */
  protected context(): WriteContext {
    return { steps: this.steps, records: this.records, now: this.clock().toISOString() };
  }
}
