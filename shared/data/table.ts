// The table's physical design, in one description: the local bootstrap creates the table from
// `createTableInput` and the CDK stack builds the deployed one from `tableDefinition`, so both have the
// same keys, indexes and time to live. The access patterns it serves are listed in docs/data-model.md.
import type { CreateTableCommandInput, KeySchemaElement } from '@aws-sdk/client-dynamodb';

/**
 * A keys-only copy of the table's keys. A `page=N` jump walks it to find where page N starts,
 * reading about 40 keys per read unit instead of whole records.
 */
const keysIndex = { name: 'keys', partitionKey: 'pk', sortKey: 'sk' } as const;
/** Records by modification time (keys only): delta sync reads it, then fetches the records. */
const changesIndex = { name: 'changes', partitionKey: '_cp', sortKey: '_cs' } as const;
/**
 * The listings (listings.ts): users, the users of a role, organisations, in entity id order (keys
 * only), for the OneRoster collections that are not a whole group.
 */
const listingsIndex = { name: 'listings', partitionKey: '_lp', sortKey: '_ls' } as const;
/**
 * A group's records by e-mail address (keys only), for `?email=`: its partition is the group's own, so
 * a route that may read the group may query it, and every record with an address is in it as written.
 */
const emailsIndex = { name: 'emails', partitionKey: 'pk', sortKey: 'email' } as const;

export const tableDesign = {
  partitionKey: 'pk',
  sortKey: 'sk',
  keysIndex,
  changesIndex,
  emailsIndex,
  listingsIndex,
  /** Every global secondary index; each projects the keys only. Queries name them as `tableDesign.<x>Index.name`. */
  indexes: [keysIndex, changesIndex, emailsIndex, listingsIndex],
  /** Epoch seconds after which DynamoDB removes the item (deletion records, codes, tokens, throttles). */
  timeToLiveAttribute: 'ttl',
} as const;

/** The longest key values DynamoDB takes, in bytes of UTF-8: a partition key's and a sort key's. */
const MAX_KEY_BYTES = { partition: 2048, sort: 1024 } as const;

/**
 * Whether DynamoDB can hold an item at this key. A key past its limits names no item, and DynamoDB
 * refuses a read of one (ValidationException): a client's id or a secret's, say, as long as its sender made it.
 */
export const holdable = (key: { pk: string; sk: string }) =>
  Buffer.byteLength(key.pk) <= MAX_KEY_BYTES.partition && Buffer.byteLength(key.sk) <= MAX_KEY_BYTES.sort;

/**
 * The time-to-live attribute's value for an item that may go once `at` has passed: epoch seconds.
 * DynamoDB removes the item some time after it, so readers check expiry themselves.
 */
export const timeToLive = (at: Date | string) => Math.ceil(new Date(at).getTime() / 1000);

const keySchema = (partitionKey: string, sortKey: string): KeySchemaElement[] => [
  { AttributeName: partitionKey, KeyType: 'HASH' },
  { AttributeName: sortKey, KeyType: 'RANGE' },
];

/** What CreateTable takes but the table's name. */
export type TableDefinition = Required<
  Pick<
    CreateTableCommandInput,
    'BillingMode' | 'AttributeDefinitions' | 'KeySchema' | 'GlobalSecondaryIndexes'
  >
> &
  Pick<CreateTableCommandInput, 'StreamSpecification'>;

/** The table (time to live is set once it exists). Every key attribute is a string. */
export const tableDefinition: TableDefinition = {
  BillingMode: 'PAY_PER_REQUEST',
  AttributeDefinitions: [
    ...new Set([
      tableDesign.partitionKey,
      tableDesign.sortKey,
      ...tableDesign.indexes.flatMap((index) => [index.partitionKey, index.sortKey]),
    ]),
  ].map((name) => ({ AttributeName: name, AttributeType: 'S' })),
  KeySchema: keySchema(tableDesign.partitionKey, tableDesign.sortKey),
  GlobalSecondaryIndexes: tableDesign.indexes.map((index) => ({
    IndexName: index.name,
    KeySchema: keySchema(index.partitionKey, index.sortKey),
    Projection: { ProjectionType: 'KEYS_ONLY' },
  })),
  // Change events (docs/events.md) come from the stream: a record's old and new images tell a replace
  // from a change of its links alone.
  StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' },
};

/**
 * CreateTable's input. `stream: false` leaves the stream out, for a table no change events are read
 * from: the tests' tables, which DynamoDB Local would otherwise keep every change of, slowing down with
 * each such table.
 */
export function createTableInput(tableName: string, { stream = true } = {}): CreateTableCommandInput {
  const { StreamSpecification, ...rest } = tableDefinition;
  return { TableName: tableName, ...rest, ...(stream ? { StreamSpecification } : {}) };
}

/**
 * The UpdateTable inputs that give a table made by an earlier version the indexes added since, one
 * each (DynamoDB creates one index per update); `present` are the index names the table has.
 */
export function missingIndexUpdates(tableName: string, present: readonly unknown[]) {
  return tableDefinition.GlobalSecondaryIndexes.filter((index) => !present.includes(index.IndexName)).map(
    (index) => ({
      TableName: tableName,
      AttributeDefinitions: tableDefinition.AttributeDefinitions,
      GlobalSecondaryIndexUpdates: [{ Create: index }],
    }),
  );
}

/** The names of the indexes a DescribeTable answer lists. */
export const indexNames = (indexes: readonly { IndexName?: string }[] = []) =>
  indexes.map((i) => i.IndexName);
