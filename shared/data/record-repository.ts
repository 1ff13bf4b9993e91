// Reads and writes the records of every group. Lists are Queries on the group's partition in id order;
// a page's read cost depends only on its size. Counts come from counter items that every write
// changes in the same transaction as the records it touches.
import type { ConsumedCapacity } from '@aws-sdk/client-dynamodb';
import {
  type DynamoDBDocumentClient,
  GetCommand,
  type NativeAttributeValue,
  QueryCommand,
  TransactWriteCommand,
} from '@aws-sdk/lib-dynamodb';
import { type RecordGroup, recordGroups } from '../domain/groups';
import { type GroupRecords, recordSchemas } from '../schemas/records';
import { type Key, keys } from './keys';
import { tableDesign } from './table';

type Item = Record<string, NativeAttributeValue>;

export interface PageQuery {
  itemsPerPage: number;
  /** Start after this id (a cursor). */
  after?: string | undefined;
  /** Or skip this many records first (a `page=N` jump). */
  skip?: number | undefined;
}

export interface RecordPage<T> {
  items: T[];
  /** Whether records follow the last one returned. */
  hasMore: boolean;
}

export interface NewRecord<G extends RecordGroup = RecordGroup> {
  group: G;
  record: GroupRecords[G];
}

export interface RecordRepositoryOptions {
  /**
   * Told what every read consumed, table and index apart. When set, reads ask DynamoDB for
   * ReturnConsumedCapacity, so the benchmarks measure the very reads the handlers make.
   */
  onReadCapacity?: (capacity: ConsumedCapacity) => void;
}

/** DynamoDB takes at most 100 actions in one transaction; a few are kept for the counter updates. */
const MAX_RECORDS_PER_TRANSACTION = 90;

export class RecordRepository {
  private readonly capacity: { ReturnConsumedCapacity?: 'INDEXES' };

  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly options: RecordRepositoryOptions = {},
  ) {
    this.capacity = options.onReadCapacity ? { ReturnConsumedCapacity: 'INDEXES' } : {};
  }

  async get<G extends RecordGroup>(group: G, id: string): Promise<GroupRecords[G] | undefined> {
    const { Item } = this.consumed(
      await this.db.send(
        new GetCommand({
          TableName: this.tableName,
          Key: keys.record(group, id),
          ConsistentRead: true,
          ...this.capacity,
        }),
      ),
    );
    return Item ? toRecord(group, Item) : undefined;
  }

  async listPage<G extends RecordGroup>(group: G, query: PageQuery): Promise<RecordPage<GroupRecords[G]>> {
    let startKey: Key | undefined;
    if (query.after !== undefined) {
      startKey = keys.record(group, query.after);
    } else if (query.skip) {
      const found = await this.keyAtOffset(group, query.skip);
      if (found === null) return { items: [], hasMore: false };
      startKey = found;
    }
    // One record past the page tells whether another page follows.
    const wanted = query.itemsPerPage + 1;
    const items: Item[] = [];
    do {
      const page = this.consumed(
        await this.db.send(
          new QueryCommand({
            TableName: this.tableName,
            KeyConditionExpression: 'pk = :pk',
            ExpressionAttributeValues: { ':pk': keys.recordPartition(group) },
            ExclusiveStartKey: startKey,
            Limit: wanted - items.length,
            ConsistentRead: true,
            ...this.capacity,
          }),
        ),
      );
      items.push(...(page.Items ?? []));
      startKey = page.LastEvaluatedKey as Key | undefined;
    } while (startKey && items.length < wanted);
    return {
      items: items.slice(0, query.itemsPerPage).map((item) => toRecord(group, item)),
      hasMore: items.length > query.itemsPerPage,
    };
  }

  /** The key of the record at `offset` (1-based), read from the keys-only index; null past the end. */
  private async keyAtOffset(group: RecordGroup, offset: number): Promise<Key | null> {
    let remaining = offset;
    let startKey: Key | undefined;
    do {
      const page = this.consumed(
        await this.db.send(
          new QueryCommand({
            TableName: this.tableName,
            IndexName: tableDesign.keysIndex.name,
            KeyConditionExpression: 'pk = :pk',
            ExpressionAttributeValues: { ':pk': keys.recordPartition(group) },
            ExclusiveStartKey: startKey,
            Limit: remaining,
            ...this.capacity,
          }),
        ),
      );
      const found = page.Items ?? [];
      remaining -= found.length;
      if (remaining === 0) {
        const last = found.at(-1);
        return last ? { pk: String(last.pk), sk: String(last.sk) } : null;
      }
      startKey = page.LastEvaluatedKey as Key | undefined;
    } while (startKey);
    return null;
  }

  async count(group: RecordGroup): Promise<number> {
    const { Item } = this.consumed(
      await this.db.send(
        new GetCommand({
          TableName: this.tableName,
          Key: keys.counter(group),
          ConsistentRead: true,
          ...this.capacity,
        }),
      ),
    );
    return typeof Item?.count === 'number' ? Item.count : 0;
  }

  async counts(): Promise<Record<RecordGroup, number>> {
    const { Items = [] } = this.consumed(
      await this.db.send(
        new QueryCommand({
          TableName: this.tableName,
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': keys.counterPartition },
          ConsistentRead: true,
          ...this.capacity,
        }),
      ),
    );
    const counts = Object.fromEntries(recordGroups.map((group) => [group, 0])) as Record<RecordGroup, number>;
    for (const item of Items) {
      const group = recordGroups.find((g) => g === item.sk);
      if (group && typeof item.count === 'number') counts[group] = item.count;
    }
    return counts;
  }

  /** Passes a read's consumed capacity to the caller that asked for it. */
  private consumed<T extends { ConsumedCapacity?: ConsumedCapacity | undefined }>(output: T): T {
    if (output.ConsumedCapacity) this.options.onReadCapacity?.(output.ConsumedCapacity);
    return output;
  }

  /**
   * Inserts new records, each transaction holding its records and the counter changes for them, so
   * the counts are exact whatever fails. A record whose id exists already fails its transaction.
   */
  async insert(records: NewRecord[]): Promise<void> {
    for (let start = 0; start < records.length; start += MAX_RECORDS_PER_TRANSACTION) {
      const chunk = records.slice(start, start + MAX_RECORDS_PER_TRANSACTION);
      const added = new Map<RecordGroup, number>();
      for (const { group } of chunk) added.set(group, (added.get(group) ?? 0) + 1);
      await this.db.send(
        new TransactWriteCommand({
          TransactItems: [
            ...chunk.map(({ group, record }) => ({
              Put: {
                TableName: this.tableName,
                Item: { ...keys.record(group, recordId(group, record)), ...record },
                ConditionExpression: 'attribute_not_exists(pk)',
              },
            })),
            ...[...added].map(([group, n]) => ({
              Update: {
                TableName: this.tableName,
                Key: keys.counter(group),
                UpdateExpression: 'ADD #count :n',
                ExpressionAttributeNames: { '#count': 'count' },
                ExpressionAttributeValues: { ':n': n },
              },
            })),
          ],
        }),
      );
    }
  }
}

function recordId<G extends RecordGroup>(group: G, record: GroupRecords[G]): string {
  const ids: { [K in RecordGroup]: (r: GroupRecords[K]) => string } = {
    entities: (r) => r.entity_id,
    students: (r) => r.student_id,
    teachers: (r) => r.teacher_id,
    tutors: (r) => r.tutor_id,
    staffs: (r) => r.staff_id,
  };
  return ids[group](record);
}

/** Field order of each group's records, as the specification lists them. */
const fieldOrder = Object.fromEntries(
  recordGroups.map((group) => [group, Object.keys(recordSchemas[group].shape)]),
) as Record<RecordGroup, string[]>;

/** The record an item holds, its fields in the specification's order (DynamoDB keeps none) and its keys left out. */
function toRecord<G extends RecordGroup>(group: G, item: Item): GroupRecords[G] {
  const record: Item = {};
  for (const field of fieldOrder[group]) if (field in item) record[field] = item[field];
  for (const field of Object.keys(item))
    if (!(field in record) && field !== 'pk' && field !== 'sk') record[field] = item[field];
  return record as GroupRecords[G];
}
