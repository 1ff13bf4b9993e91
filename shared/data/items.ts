// The one Put, batched Put, Get, partition Query and conditional-write path of the repositories: a Put
// writes the time to live its kind declares (item-kinds.ts), a Get or Query answers items without their
// keys and time to live, and a write whose condition fails answers undefined instead of throwing.
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import {
  BatchWriteCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  paginateQuery,
} from '@aws-sdk/lib-dynamodb';
import type { ItemKind } from './item-kinds';
import type { Key } from './keys';
import { holdable, tableDesign, timeToLive } from './table';

/** The time-to-live attribute an item of `kind` holding `attributes` is written with, if its kind expires by one of them. */
function expiryOf(kind: ItemKind, attributes: object): Record<string, number> {
  if (kind.expires === undefined || kind.expires === 'set by the writer') return {};
  const at = (attributes as Record<string, unknown>)[kind.expires.after];
  if (typeof at !== 'string') throw new Error(`An item expiring after ${kind.expires.after} has none`);
  return { [tableDesign.timeToLiveAttribute]: timeToLive(at) + (kind.expires.plusSeconds ?? 0) };
}

/** The result of a write, or undefined when its condition did not hold. */
export async function ifConditionHolds<T>(write: Promise<T>): Promise<T | undefined> {
  try {
    return await write;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return undefined;
    throw error;
  }
}

/** Whether a conditional write's condition held (and the write was made). */
export const conditionHeld = async (write: Promise<unknown>) => (await ifConditionHolds(write)) !== undefined;

/** An item's attributes without its keys and time to live. */
function attributesOf<T>(item: Record<string, unknown>): T {
  const { pk: _pk, sk: _sk, [tableDesign.timeToLiveAttribute]: _ttl, ...attributes } = item;
  return attributes as T;
}

/** DynamoDB writes at most 25 items in one BatchWriteItem. */
const MAX_ITEMS_PER_BATCH_WRITE = 25;

/**
 * Puts whole items, unconditionally, in BatchWriteItem requests of 25, `atOnce` requests at a time;
 * what DynamoDB leaves unprocessed is sent again.
 */
export async function putInBatches(
  db: DynamoDBDocumentClient,
  tableName: string,
  items: readonly Record<string, unknown>[],
  atOnce = 1,
): Promise<void> {
  const batches: Record<string, unknown>[][] = [];
  for (let at = 0; at < items.length; at += MAX_ITEMS_PER_BATCH_WRITE)
    batches.push(items.slice(at, at + MAX_ITEMS_PER_BATCH_WRITE));
  let next = 0;
  const worker = async () => {
    while (next < batches.length) {
      const batch = batches[next++] as Record<string, unknown>[];
      let requests = batch.map((Item) => ({ PutRequest: { Item } }));
      while (requests.length > 0) {
        const { UnprocessedItems } = await db.send(
          new BatchWriteCommand({ RequestItems: { [tableName]: requests } }),
        );
        requests = (UnprocessedItems?.[tableName] ?? []) as typeof requests;
      }
    }
  };
  await Promise.all(Array.from({ length: atOnce }, worker));
}

export class ItemStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  /**
   * What puts an item of `kind` at `key`, alone or in a transaction: with `ifAbsent`, only where there
   * is none yet.
   */
  putInput(kind: ItemKind, key: Key, attributes: object, { ifAbsent = false } = {}) {
    const item: Record<string, unknown> = { ...key, ...attributes, ...expiryOf(kind, attributes) };
    return {
      TableName: this.tableName,
      Item: item,
      ...(ifAbsent ? { ConditionExpression: 'attribute_not_exists(pk)' } : {}),
    };
  }

  async put(kind: ItemKind, key: Key, attributes: object, options: { ifAbsent?: boolean } = {}) {
    await this.db.send(new PutCommand(this.putInput(kind, key, attributes, options)));
  }

  /**
   * The item at `key` as last written (a strongly consistent read), without its keys and time to live;
   * none at a key no item can have (`holdable`), without asking.
   */
  async get<T>(key: Key): Promise<T | undefined> {
    if (!holdable(key)) return undefined;
    const { Item } = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: key, ConsistentRead: true }),
    );
    return Item ? attributesOf<T>(Item) : undefined;
  }

  /**
   * Every item of a small partition (a tenant's clients, its webhooks), or those `extra`'s key condition
   * names, read strongly consistent, each without its keys and time to live.
   */
  async query<T>(
    partition: string,
    extra: {
      KeyConditionExpression?: string;
      ProjectionExpression?: string;
      ExpressionAttributeNames?: Record<string, string>;
      ExpressionAttributeValues?: Record<string, unknown>;
    } = {},
  ): Promise<T[]> {
    const found: T[] = [];
    const pages = paginateQuery(
      { client: this.db },
      {
        TableName: this.tableName,
        ConsistentRead: true,
        ...extra,
        KeyConditionExpression: extra.KeyConditionExpression ?? 'pk = :pk',
        ExpressionAttributeValues: { ':pk': partition, ...extra.ExpressionAttributeValues },
      },
    );
    for await (const page of pages) found.push(...(page.Items ?? []).map((item) => attributesOf<T>(item)));
    return found;
  }
}
