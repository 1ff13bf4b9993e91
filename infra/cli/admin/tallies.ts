// Counts the gradebook's tallies (shared/data/tallies.ts) again from the records, on a table whose
// results and attendance were written before the tallies were kept: `records tally-again`. Safe while
// the service writes: each keeping record (a line item, a student) is read before the records it
// counts, and its recount written only if no write changed it since (its `_links`, which every write of
// a record it counts moves on); one written meanwhile is counted again, on the next pass.
import { type DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { conditionHeld, ItemStore } from '../../../shared/data/items';
import { keys } from '../../../shared/data/keys';
import { type Item, internal, toRecord } from '../../../shared/data/record-items';
import {
  TALLY_PREFIX,
  type TalliedGroup,
  talliedGroups,
  tallyKeeper,
  tallyTotals,
} from '../../../shared/data/tallies';
import { idFields, type Reference } from '../../../shared/domain/groups';

/** How many counts one update sets or removes: its expression stays well inside DynamoDB's 4 KB. */
const CHANGES_PER_UPDATE = 100;

/** How many passes a recount makes before it leaves the records written in each to the next run. */
const PASSES = 5;

const tallyOf = (item: Item) =>
  new Map(Object.entries(item).filter(([name]) => name.startsWith(TALLY_PREFIX)) as [string, number][]);

/**
 * Writes a keeping record's `changes` (a count to set, or one to remove), in parts, each conditional on
 * the record's `_links` being as read and moving it on; answers whether every part was written.
 */
async function writeRecount(
  db: DynamoDBDocumentClient,
  tableName: string,
  key: Item,
  links: number | undefined,
  changes: readonly { name: string; count?: number }[],
): Promise<boolean> {
  // In parts: an update expression holds at most 4 KB. Each part expects `_links` where the one before
  // left it, so a write between two parts stops the rest (the next pass counts the record again).
  for (let start = 0; start < changes.length; start += CHANGES_PER_UPDATE) {
    const part = changes.slice(start, start + CHANGES_PER_UPDATE);
    const setting = part.filter((c) => c.count !== undefined);
    const removing = part.filter((c) => c.count === undefined);
    const written = await conditionHeld(
      db.send(
        new UpdateCommand({
          TableName: tableName,
          Key: key,
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
      ),
    );
    if (!written) return false;
    links = (links ?? 0) + 1;
  }
  return true;
}

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
  const items = new ItemStore(db, tableName);
  const idField = idFields[keeper.group];
  const keeping = (await items.query<Item>(keys.recordPartition(keeper.group))).filter(
    (item) => !only || only.has(String(item[idField])),
  );
  const counted = tallyTotals(
    group,
    (await items.query<Item>(keys.recordPartition(group))).map((item) => toRecord(group, item)),
  );
  let updated = 0;
  const raced = new Set<string>();
  for (const item of keeping) {
    const id = String(item[idField]);
    const was = tallyOf(item);
    const is = counted.get(id) ?? new Map<string, number>();
    const changes = [
      ...[...is].filter(([name, count]) => was.get(name) !== count).map(([name, count]) => ({ name, count })),
      ...[...was.keys()].filter((name) => !is.has(name)).map((name) => ({ name })),
    ];
    if (changes.length === 0) continue;
    const links = item[internal.links] as number | undefined;
    if (await writeRecount(db, tableName, keys.record(keeper.group, id), links, changes)) updated += 1;
    else raced.add(id);
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
