// Creates, replaces and deletes records. Every write is one DynamoDB transaction holding the record,
// its processnumber claim, its group's counter, its entity's roles, a tutor's links to its students and
// the deletion records, so no failure leaves them disagreeing. Versions make writes conditional: a
// stale If-Match gets 412, and a write that raced another is retried from a fresh read. What each group's
// writes involve is in write-rules.ts, the items in write-steps.ts, the transaction in write-transaction.ts.
import { randomUUID } from 'node:crypto';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { etag, internal, recordItem, type StoredRecord, toRecord } from '../data/record-items';
import type { RecordRepository } from '../data/record-repository';
import type { DocumentGroup, RecordGroup } from '../domain/groups';
import { LIMITS } from '../domain/limits';
import { ConflictError, PreconditionFailedError } from '../http/errors';
import { type EntityTagCondition, matches } from '../http/preconditions';
import type { GroupRecords } from '../schemas/records';
import type { IdentificationDocumentInsertRequest, InsertRequest } from '../schemas/requests';
import { missingRecord } from './missing-record';
import { claimSteps, linkGuards, linkSteps, personRules, type WriteContext } from './write-rules';
import { WriteSteps } from './write-steps';
import { commit, retrying, type Step } from './write-transaction';

/** Steps a caller adds to a write's transaction (an idempotency key's response), given what it writes. */
export type AlsoWrite<G extends RecordGroup> = (written: StoredRecord<G>) => Step[];

export class RecordWriter {
  private readonly steps: WriteSteps;

  constructor(
    private readonly db: DynamoDBDocumentClient,
    tableName: string,
    private readonly records: RecordRepository,
    private readonly clock: () => Date = () => new Date(),
  ) {
    this.steps = new WriteSteps(tableName);
  }

  /** Creates a record; `also` adds steps to its transaction, given the record as it will be stored. */
  async create<G extends RecordGroup>(
    group: G,
    input: InsertRequest<G>,
    also: AlsoWrite<G> = () => [],
  ): Promise<StoredRecord<G>> {
    return retrying(async () => {
      const context = this.context();
      const id = randomUUID();
      const { record, steps: person } = personRules[group].create(input, id, context);
      const item = recordItem(group, record, 1);
      const created = { record: toRecord(group, item), version: 1 };
      await commit(this.db, [
        ...also(created),
        this.steps.putNew(item),
        ...claimSteps(this.steps, group, id, undefined, record),
        this.steps.count(group, 1),
        ...person,
        ...linkSteps(this.steps, group, id, undefined, record),
      ]);
      return created;
    });
  }

  async replace<G extends RecordGroup>(
    group: G,
    id: string,
    input: InsertRequest<G>,
    ifMatch?: EntityTagCondition,
    check: (current: GroupRecords[G]) => void = () => {},
  ): Promise<StoredRecord<G>> {
    return this.modify(group, id, ifMatch, (current) => {
      check(current);
      return personRules[group].replace(current, input, id);
    });
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
          throw new ConflictError(`The record holds the most documents it can (${LIMITS.listItems}).`);
        }
        return { ...current, documents: [...current.documents, document] };
      },
      also,
    );
  }

  /** Deletes a record; returns it as it was, for the audit event of the request. */
  async remove<G extends RecordGroup>(
    group: G,
    id: string,
    ifMatch?: EntityTagCondition,
  ): Promise<GroupRecords[G]> {
    return retrying(async () => {
      const { item, version } = await this.current(group, id, ifMatch);
      const context = this.context();
      const record = toRecord(group, item);
      const person = await personRules[group].remove(record, id, context);
      await commit(this.db, [
        this.steps.deleteVersion(group, id, version, [...linkGuards(group), ...person.guards], ifMatch),
        this.steps.count(group, -1),
        ...this.steps.recordDeletion(group, id, context.now),
        ...claimSteps(this.steps, group, id, record, undefined),
        ...person.steps,
        ...linkSteps(this.steps, group, id, record, undefined),
      ]);
      return record;
    });
  }

  /** Reads a record, lets `change` produce its next fields, and writes it as the next version. */
  private async modify<G extends RecordGroup>(
    group: G,
    id: string,
    ifMatch: EntityTagCondition | undefined,
    change: (current: GroupRecords[G]) => GroupRecords[G],
    also: AlsoWrite<G> = () => [],
  ): Promise<StoredRecord<G>> {
    return retrying(async () => {
      const { item, version } = await this.current(group, id, ifMatch);
      const current = toRecord(group, item);
      const now = this.clock().toISOString();
      const next = { ...change(current), created_at: current.created_at, updated_at: now } as GroupRecords[G];
      // A student's tutors are kept by the tutors' writes, not by the student's.
      const nextItem = {
        ...recordItem(group, next, version + 1),
        ...(item[internal.tutors] ? { [internal.tutors]: item[internal.tutors] } : {}),
      };
      const written = { record: toRecord(group, nextItem), version: version + 1 };
      // What the caller adds goes first: a retry that met a kept response answers with it, not with a 412.
      await commit(this.db, [
        ...also(written),
        this.steps.putNextVersion(nextItem, version, ifMatch),
        ...claimSteps(this.steps, group, id, current, next),
        ...linkSteps(this.steps, group, id, current, next),
      ]);
      return written;
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

  /** What the rules build an attempt's steps with, stamped now. */
  private context(): WriteContext {
    return { steps: this.steps, records: this.records, now: this.clock().toISOString() };
  }
}
