// Gives every record the entry of the listings index (shared/data/listings.ts) its record calls for,
// on a table whose records were written before the index existed, or before their group was listed:
// `records list-again`, and the local start that adds the index or a listing. Each record is read from its group's partition and updated only where its
// entry is missing or differs, on condition that it is still the version read; a record written
// meanwhile has its entry from that write.
import { type DynamoDBDocumentClient, paginateQuery, UpdateCommand } from '@aws-sdk/lib-dynamodb';
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

/** A group's records a page at a time, however many: a district's people are not held in memory at once. */
async function listGroupAgain(db: DynamoDBDocumentClient, tableName: string, group: RecordGroup) {
  let updated = 0;
  const pages = paginateQuery(
    { client: db },
    {
      TableName: tableName,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.recordPartition(group) },
    },
  );
  for await (const page of pages) {
    for (const item of page.Items ?? []) {
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
  }
  return updated;
}
