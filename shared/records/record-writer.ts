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
import { commit, retrying } from './write-transaction';

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

  async create<G extends RecordGroup>(group: G, input: InsertRequest<G>): Promise<StoredRecord<G>> {
    return retrying(async () => {
      const context = this.context();
      const id = randomUUID();
      const { record, steps: person } = personRules[group].create(input, id, context);
      const item = recordItem(group, record, 1);
      await commit(this.db, [
        this.steps.putNew(item),
        ...claimSteps(this.steps, group, id, undefined, record),
        this.steps.count(group, 1),
        ...person,
        ...linkSteps(this.steps, group, id, undefined, record),
      ]);
      return { record: toRecord(group, item), version: 1 };
    });
  }

  async replace<G extends RecordGroup>(
    group: G,
    id: string,
    input: InsertRequest<G>,
    ifMatch?: EntityTagCondition,
  ): Promise<StoredRecord<G>> {
    return this.modify(group, id, ifMatch, (current) => personRules[group].replace(current, input, id));
  }

  async addDocument<G extends DocumentGroup>(
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
      await commit(this.db, [
        this.steps.putNextVersion(nextItem, version, ifMatch),
        ...claimSteps(this.steps, group, id, current, next),
        ...linkSteps(this.steps, group, id, current, next),
      ]);
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

  /** What the rules build an attempt's steps with, stamped now. */
  private context(): WriteContext {
    return { steps: this.steps, records: this.records, now: this.clock().toISOString() };
  }
}
