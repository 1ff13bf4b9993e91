// Gives every record the entry of the listings index (shared/data/listings.ts) its record calls for,
// on a table whose records were written before the index existed, or before their group was listed:
// `records list-again`, and the local start that adds the index or a listing. Each record is read from its group's partition and updated only where its
// entry is missing or differs, on condition that it is still the version read; a record written
// meanwhile has its entry from that write. The same command files the records of a group with a listed
// reference under what they name (`referrer` items, item-kinds.ts), on the same condition.
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import {
  type DynamoDBDocumentClient,
  paginateQuery,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { filedUnder, filingGroups } from '../../../shared/data/filings';
import { conditionHeld } from '../../../shared/data/items';
import { keys } from '../../../shared/data/keys';
import { listedGroups, listingOf } from '../../../shared/data/listings';
import { internal, toRecord } from '../../../shared/data/record-items';
import { tableDesign } from '../../../shared/data/table';
import type { RecordGroup } from '../../../shared/domain/groups';

const { partitionKey, sortKey } = tableDesign.listingsIndex;

/**
 * Updates the records whose listing entry is missing or stale, of every listed group or of these;
 * answers how many it updated.
 */
export async function listAgain(
  db: DynamoDBDocumentClient,
  tableName: string,
  groups: readonly RecordGroup[] = listedGroups,
): Promise<number> {
  let updated = 0;
  for (const group of groups) updated += await listGroupAgain(db, tableName, group);
  return updated;
}

/**
 * Files the records of every group with a listed reference (or of these) under the records they name,
 * each with a transaction that holds while the record is still the version read; answers how many
 * records it filed. A filing already there is put again, unchanged.
 */
export async function fileAgain(
  db: DynamoDBDocumentClient,
  tableName: string,
  groups: readonly RecordGroup[] = filingGroups,
): Promise<number> {
  let filed = 0;
  for (const group of groups) {
    for await (const item of recordItems(db, tableName, group)) {
      const under = filedUnder(group, String(item.sk), toRecord(group, item));
      if (under.length === 0) continue;
      const held = await committed(
        db.send(
          new TransactWriteCommand({
            TransactItems: [
              {
                ConditionCheck: {
                  TableName: tableName,
                  Key: { pk: item.pk, sk: item.sk },
                  ConditionExpression: '#v = :v',
                  ExpressionAttributeNames: { '#v': internal.version },
                  ExpressionAttributeValues: { ':v': item[internal.version] },
                },
              },
              ...under.map((Item) => ({ Put: { TableName: tableName, Item } })),
            ],
          }),
        ),
      );
      if (held) filed += 1;
    }
  }
  return filed;
}

/** Whether a transaction committed: not when one of its conditions failed (the record changed meanwhile). */
async function committed(write: Promise<unknown>): Promise<boolean> {
  try {
    await write;
    return true;
  } catch (error) {
    const reasons = error instanceof TransactionCanceledException ? (error.CancellationReasons ?? []) : [];
    if (reasons.some((reason) => reason.Code === 'ConditionalCheckFailed')) return false;
    throw error;
  }
}

/** A group's records a page at a time, however many: a district's people are not held in memory at once. */
async function* recordItems(db: DynamoDBDocumentClient, tableName: string, group: RecordGroup) {
  const pages = paginateQuery(
    { client: db },
    {
      TableName: tableName,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.recordPartition(group) },
    },
  );
  for await (const page of pages) yield* page.Items ?? [];
}

async function listGroupAgain(db: DynamoDBDocumentClient, tableName: string, group: RecordGroup) {
  let updated = 0;
  for await (const item of recordItems(db, tableName, group)) {
    const entry = listingOf(group, toRecord(group, item));
    if (!entry) continue;
    const listing = keys.listingPartition(entry.listing);
    if (item[partitionKey] === listing && item[sortKey] === entry.sort) continue;
    const listed = await conditionHeld(
      db.send(
        new UpdateCommand({
          TableName: tableName,
          Key: { pk: item.pk, sk: item.sk },
          UpdateExpression: 'SET #lp = :lp, #ls = :ls',
          ConditionExpression: '#v = :v',
          ExpressionAttributeNames: { '#lp': partitionKey, '#ls': sortKey, '#v': internal.version },
          ExpressionAttributeValues: {
            ':lp': listing,
            ':ls': entry.sort,
            ':v': item[internal.version],
          },
        }),
      ),
    );
    if (listed) updated += 1;
  }
  return updated;
}
