// Counts the gradebook's tallies (shared/data/tallies.ts) again from the records, on a table whose
// results and attendance were written before the tallies were kept: `records tally-again`. Safe while
// the service writes: each keeping record (a line item, a student) is read before the records it
// counts, and its recount written only if no write changed it since (its `_links`, which every write of
// a record it counts moves on); one written meanwhile is counted again, on the next pass.
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { type DynamoDBDocumentClient, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from '../../../shared/data/keys';
import { type Item, internal, toRecord } from '../../../shared/data/record-items';
import {
  TALLY_PREFIX,
  type TalliedGroup,
  talliedGroups,
  tallyChange,
  tallyKeeper,
} from '../../../shared/data/tallies';
import type { Reference } from '../../../shared/domain/groups';

/** How many counts one update sets or removes: its expression stays well inside DynamoDB's 4 KB. */
const CHANGES_PER_UPDATE = 100;

/** How many passes a recount makes before it leaves the records written in each to the next run. */
const PASSES = 5;

/** Every item of a partition, page by page. */
async function partition(db: DynamoDBDocumentClient, tableName: string, pk: string): Promise<Item[]> {
  const items: Item[] = [];
  let ExclusiveStartKey: Item | undefined;
  do {
    const page = await db.send(
      new QueryCommand({
        TableName: tableName,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': pk },
        ConsistentRead: true,
        ExclusiveStartKey,
      }),
    );
    items.push(...(page.Items ?? []));
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return items;
}

const tallyOf = (item: Item) =>
  new Map(Object.entries(item).filter(([name]) => name.startsWith(TALLY_PREFIX)) as [string, number][]);

/**
 * Writes each keeping record's recount where it differs and the record is as read; answers how many it
 * wrote, and the records written meanwhile.
 */
async function tallyGroupAgain(
  db: DynamoDBDocumentClient,
  tableName: string,
  group: TalliedGroup,
  keeper: Reference,
  only: ReadonlySet<string> | undefined,
): Promise<{ updated: number; raced: Set<string> }> {
  const keeping = (await partition(db, tableName, keys.recordPartition(keeper.group))).filter(
    (item) => !only || only.has(String(item.sk)),
  );
  const counted = new Map<string, Map<string, number>>();
  for (const item of await partition(db, tableName, keys.recordPartition(group))) {
    const record = toRecord(group, item);
    const id = String((record as Record<string, unknown>)[keeper.field]);
    const tally = counted.get(id) ?? new Map<string, number>();
    counted.set(id, tally);
    for (const [name, by] of tallyChange(group, undefined, record))
      tally.set(name, (tally.get(name) ?? 0) + by);
  }
  let updated = 0;
  const raced = new Set<string>();
  for (const item of keeping) {
    const id = String(item.sk);
    const was = tallyOf(item);
    const is = counted.get(id) ?? new Map<string, number>();
    const set = [...is].filter(([name, count]) => was.get(name) !== count);
    const gone = [...was.keys()].filter((name) => !is.has(name));
    if (set.length === 0 && gone.length === 0) continue;
    // In parts: an update expression holds at most 4 KB. Each part moves `_links` on, and the next
    // expects it there, so a write between two parts stops the rest (the next pass counts it again).
    const changes: { name: string; count?: number }[] = [
      ...set.map(([name, count]) => ({ name, count })),
      ...gone.map((name) => ({ name })),
    ];
    let links = item[internal.links] as number | undefined;
    try {
      for (let start = 0; start < changes.length; start += CHANGES_PER_UPDATE) {
        const part = changes.slice(start, start + CHANGES_PER_UPDATE);
        const setting = part.filter((c) => c.count !== undefined);
        const removing = part.filter((c) => c.count === undefined);
        await db.send(
          new UpdateCommand({
            TableName: tableName,
            Key: keys.record(keeper.group, id),
            UpdateExpression: [
              ...(setting.length > 0 ? [`SET ${setting.map((_, i) => `#s${i} = :s${i}`).join(', ')}`] : []),
              ...(removing.length > 0 ? [`REMOVE ${removing.map((_, i) => `#r${i}`).join(', ')}`] : []),
              'ADD #l :one',
            ].join(' '),
            ConditionExpression:
              links === undefined ? 'attribute_exists(pk) AND attribute_not_exists(#l)' : '#l = :links',
            ExpressionAttributeNames: {
              '#l': internal.links,
              ...Object.fromEntries(setting.map(({ name }, i) => [`#s${i}`, name])),
              ...Object.fromEntries(removing.map(({ name }, i) => [`#r${i}`, name])),
            },
            ExpressionAttributeValues: {
              ':one': 1,
              ...(links === undefined ? {} : { ':links': links }),
              ...Object.fromEntries(setting.map(({ count }, i) => [`:s${i}`, count])),
            },
          }),
        );
        links = (links ?? 0) + 1;
      }
      updated += 1;
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
      raced.add(id);
    }
  }
  return { updated, raced };
}

/**
 * Counts every tally again from its group's records; answers how many keeping records it corrected, and
 * how many were still being written after every pass (to run it again for).
 */
export async function tallyAgain(
  db: DynamoDBDocumentClient,
  tableName: string,
): Promise<{ updated: number; unsettled: number }> {
  let updated = 0;
  let unsettled = 0;
  for (const group of talliedGroups) {
    const keeper = tallyKeeper(group) as Reference;
    let only: Set<string> | undefined;
    for (let pass = 0; pass < PASSES && (only === undefined || only.size > 0); pass++) {
      const done = await tallyGroupAgain(db, tableName, group, keeper, only);
      updated += done.updated;
      only = done.raced;
    }
    unsettled += only?.size ?? 0;
  }
  return { updated, unsettled };
}
