// The one Put, Get and conditional-write path of the repositories: a Put writes the time to live its
// kind declares (item-kinds.ts), a Get answers the item without its keys and time to live, and a write
// whose condition fails answers undefined instead of throwing.
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { type DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { ItemKind } from './item-kinds';
import type { Key } from './keys';
import { tableDesign, timeToLive } from './table';

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

  /** The item at `key` as last written (a strongly consistent read), without its keys and time to live. */
  async get<T>(key: Key): Promise<T | undefined> {
    const { Item } = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: key, ConsistentRead: true }),
    );
    if (!Item) return undefined;
    const { pk: _pk, sk: _sk, [tableDesign.timeToLiveAttribute]: _ttl, ...attributes } = Item;
    return attributes as T;
  }
}
