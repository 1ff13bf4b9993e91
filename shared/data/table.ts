// The table's physical design, read by the local bootstrap and the CDK stack alike, so both create
// the same table. The access patterns it serves are listed in docs/data-model.md.
import type { CreateTableCommandInput } from '@aws-sdk/client-dynamodb';

export const tableDesign = {
  partitionKey: 'pk',
  sortKey: 'sk',
  /**
   * A keys-only copy of the table's keys. A `page=N` jump walks it to find where page N starts,
   * reading about 40 keys per read unit instead of whole records.
   */
  keysIndex: { name: 'keys', partitionKey: 'pk', sortKey: 'sk' },
  /** Records by modification time (keys only): delta sync reads it, then fetches the records. */
  changesIndex: { name: 'changes', partitionKey: '_cp', sortKey: '_cs' },
  /** Epoch seconds after which DynamoDB removes the item (deletion records). */
  timeToLiveAttribute: 'ttl',
} as const;

/**
 * The time-to-live attribute's value for an item that may go once `at` has passed: epoch seconds.
 * DynamoDB removes the item some time after it, so readers check expiry themselves.
 */
export const timeToLive = (at: Date | string) => Math.ceil(new Date(at).getTime() / 1000);

export function createTableInput(tableName: string): CreateTableCommandInput {
  const { partitionKey, sortKey, keysIndex, changesIndex } = tableDesign;
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: [
      { AttributeName: partitionKey, AttributeType: 'S' },
      { AttributeName: sortKey, AttributeType: 'S' },
      { AttributeName: changesIndex.partitionKey, AttributeType: 'S' },
      { AttributeName: changesIndex.sortKey, AttributeType: 'S' },
    ],
    KeySchema: [
      { AttributeName: partitionKey, KeyType: 'HASH' },
      { AttributeName: sortKey, KeyType: 'RANGE' },
    ],
    GlobalSecondaryIndexes: [
      {
        IndexName: keysIndex.name,
        KeySchema: [
          { AttributeName: keysIndex.partitionKey, KeyType: 'HASH' },
          { AttributeName: keysIndex.sortKey, KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'KEYS_ONLY' },
      },
      {
        IndexName: changesIndex.name,
        KeySchema: [
          { AttributeName: changesIndex.partitionKey, KeyType: 'HASH' },
          { AttributeName: changesIndex.sortKey, KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'KEYS_ONLY' },
      },
    ],
  };
}
