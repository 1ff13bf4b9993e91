// Runs a record write as one DynamoDB transaction. Each step of it says what its failed condition
// means, so a cancelled transaction becomes the client's error (409, 412, 400) or a race; a write that
// raced another is tried again from a fresh read, with jittered backoff.
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { type DynamoDBDocumentClient, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { Item } from '../data/record-items';
import { StateConflictError } from '../domain/errors';

const MAX_ATTEMPTS = 12;

export type TransactItem = NonNullable<
  ConstructorParameters<typeof TransactWriteCommand>[0]['TransactItems']
>[number];

/** An item's key as one string, naming it in a transaction. */
export const itemKey = (key: Item | undefined) => `${String(key?.pk)}\u0000${String(key?.sk)}`;

/** What a failed condition means when it is a race with another writer: try again. */
export const RETRY = Symbol('retry');

/** Says what a failed condition means: an error for the client, or a race to retry. */
export type OnConditionFailed = (current: Item | undefined) => Error | typeof RETRY;

/**
 * A change that adds up: to a count, to a set's entries, to the count of changes an item's links had.
 * Two of one kind to one item merge into one (transaction-packs.ts), as if both were written in turn.
 */
export interface Additive {
  /** The item it changes, as packing names items; a count names its group's counter, whatever the shard. */
  item: string;
  /** Only changes of the same kind merge. */
  kind: string;
  entries: readonly string[];
  by: number;
  /** How many writes it stands for: each adds one to the item's count of link changes. */
  changes: number;
  build(entries: readonly string[], by: number, changes: number): Step;
}

/** One action of a transaction; a failed condition is a race unless the step says otherwise. */
export interface Step {
  action: TransactItem;
  onConditionFailed?: OnConditionFailed;
  additive?: Additive;
  /**
   * Counts the action took down, which may now be zero: once the transaction commits, each still at zero
   * is removed from the item, so that counts of values no record holds any more do not pile up on it.
   */
  lowered?: { key: Item; names: readonly string[] };
}

/** Thrown by an attempt that read or wrote in a race with another writer: `retrying` runs it again. */
export class Retry extends Error {}

/**
 * A write that would take an item past DynamoDB's 400 KB (a record with its lists, a tutor or an
 * enrollment more): no race, so trying again would not help. 409: the records as they are refuse it.
 */
const tooLarge = () =>
  new StateConflictError(
    'This write would make a record larger than the 400 KB DynamoDB holds, so nothing was written: make the record smaller (its photo, documents or lists) first.',
  );

/** Whether DynamoDB refused a write for the size of an item it would write: a Put's own, or an update's. */
const overItemSize = (message: string | undefined) => /item size/i.test(message ?? '');

/**
 * Removes the counts the steps took down that are at zero now, each where it still is: one another write
 * raised since stays. The write has committed whatever happens here: a removal that fails leaves a count
 * of zero, which counts nothing, so its failure is not the write's.
 */
async function removeZeros(db: DynamoDBDocumentClient, steps: readonly Step[]): Promise<void> {
  const removals = steps.flatMap(({ action, lowered }) =>
    (lowered?.names ?? []).map(
      (name) =>
        new UpdateCommand({
          TableName: action.Update?.TableName,
          Key: lowered?.key,
          UpdateExpression: 'REMOVE #count',
          ConditionExpression: '#count = :zero',
          ExpressionAttributeNames: { '#count': name },
          ExpressionAttributeValues: { ':zero': 0 },
        }),
    ),
  );
  await Promise.all(removals.map((removal) => db.send(removal).catch(() => undefined)));
}

/** Writes the steps in one transaction; a failed condition throws its step's error, or `Retry`. */
export async function commit(db: DynamoDBDocumentClient, steps: readonly Step[]): Promise<void> {
  try {
    await db.send(new TransactWriteCommand({ TransactItems: steps.map((s) => s.action) }));
  } catch (error) {
    if (error instanceof Error && error.name === 'ValidationException' && overItemSize(error.message)) {
      throw tooLarge();
    }
    if (!(error instanceof TransactionCanceledException)) throw error;
    const reasons = error.CancellationReasons ?? [];
    // Any other invalid action is no race but a fault of the service's: it goes on as one (500, logged).
    const invalid = reasons.find((reason) => reason.Code === 'ValidationError');
    if (invalid) throw overItemSize(invalid.Message) ? tooLarge() : error;
    for (const [i, reason] of reasons.entries()) {
      if (reason.Code !== 'ConditionalCheckFailed') continue;
      const outcome =
        steps[i]?.onConditionFailed?.(reason.Item ? unmarshall(reason.Item) : undefined) ?? RETRY;
      if (outcome !== RETRY) throw outcome;
    }
    throw new Retry();
  }
  await removeZeros(db, steps);
}

/**
 * Runs a write until it commits; races with other writers are retried with jittered backoff. A write
 * that loses every race is refused with 409 (nothing of it was written), never answered as a failure of
 * the service.
 */
export async function retrying<T>(attempt: () => Promise<T>): Promise<T> {
  for (let n = 1; ; n++) {
    try {
      return await attempt();
    } catch (error) {
      if (!(error instanceof Retry)) throw error;
      if (n >= MAX_ATTEMPTS) {
        throw new StateConflictError(
          'Other requests kept changing the records this write touches, so it was not made. Send it again.',
        );
      }
      await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(500, 10 * 2 ** n)));
    }
  }
}
