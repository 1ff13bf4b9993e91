// The demo seed's write and the insert the tests arrange records with: a set of new, mutually
// consistent records, each written with the links the others give it. Kept apart from the repositories,
// so that the handlers' bundles do not carry it.
import { type DynamoDBDocumentClient, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { RecordGroup, Reference } from '../domain/groups';
import type { GroupRecords } from '../schemas/records';
import { filedUnder } from './filings';
import { keys } from './keys';
import { countChange, type Item, internal, recordId, recordItem } from './record-items';
import { linksOf, naturalKeyOf } from './record-links';
import { talliedGroups, tallyKeeper, tallyTotals } from './tallies';

export interface NewRecord<G extends RecordGroup = RecordGroup> {
  group: G;
  record: GroupRecords[G];
}

/**
 * DynamoDB takes at most 100 actions in one transaction: a seed's records (one action each, two with a
 * processnumber claim) fill it up to this, leaving room for a counter per group.
 */
const MAX_RECORD_ACTIONS_PER_TRANSACTION = 90;
/** A transaction holds at most 4 MB: records are grouped well under it, by their JSON size. */
const MAX_RECORD_BYTES_PER_TRANSACTION = 3_000_000;

/** DynamoDB takes at most 100 actions in one transaction. */
const MAX_ACTIONS_PER_TRANSACTION = 100;

/** Transactions a seed sends at once. */
const TRANSACTIONS_AT_ONCE = 4;

/**
 * The demo seed's write, as `insertRecords` writes them, into a table that holds no records yet. The
 * same items go as unconditional puts, 100 a transaction whatever records they belong to, and each
 * group's count once: a seed stopped part-way is made again from an empty table (its seed marker comes
 * last), so neither a record's all-or-nothing nor its conditions would buy it anything. DynamoDB Local
 * keeps a DATA_DIR's table in SQLite and commits each transaction at once where it commits each item of
 * a BatchWriteItem in turn: the demo seed's 7,542 items take some 11–15 s this way against 32–37 s in
 * batches of 25.
 */
export async function seedRecords(
  db: DynamoDBDocumentClient,
  tableName: string,
  records: readonly NewRecord[],
): Promise<void> {
  const links = insertedLinks(records);
  const items = records.flatMap((one) => newItems(one, links));
  // Where insertRecords' conditions would refuse a repeated id or processnumber, a batch would overwrite it.
  const written = new Set<string>();
  for (const { pk, sk } of items) {
    const key = `${pk}\u0000${sk}`;
    if (written.has(key)) throw new Error(`A seeded set writes the item ${pk} ${sk} twice`);
    written.add(key);
  }
  await putInTransactions(db, tableName, items);
  await db.send(new TransactWriteCommand({ TransactItems: countChanges(tableName, records) }));
}

/** Puts whole items, unconditionally, in transactions as full as DynamoDB allows, a few at a time. */
async function putInTransactions(db: DynamoDBDocumentClient, tableName: string, items: readonly Item[]) {
  const chunks: Item[][] = [[]];
  let bytes = 0;
  for (const item of items) {
    const size = JSON.stringify(item).length;
    const last = chunks.at(-1) as Item[];
    if (
      last.length === MAX_ACTIONS_PER_TRANSACTION ||
      (last.length > 0 && bytes + size > MAX_RECORD_BYTES_PER_TRANSACTION)
    ) {
      chunks.push([]);
      bytes = 0;
    }
    (chunks.at(-1) as Item[]).push(item);
    bytes += size;
  }
  let next = 0;
  const worker = async () => {
    while (next < chunks.length) {
      const chunk = chunks[next++] as Item[];
      await db.send(
        new TransactWriteCommand({
          TransactItems: chunk.map((Item) => ({ Put: { TableName: tableName, Item } })),
        }),
      );
    }
  };
  await Promise.all(Array.from({ length: TRANSACTIONS_AT_ONCE }, worker));
}

/**
 * Inserts a set of new, mutually consistent records (a seed): each transaction holds its records, their
 * processnumber claims and the counter changes, so counts stay exact whatever fails. What records name
 * (a tutor's students, the rostering references) must be in the same set, which is written with the
 * links already on it; a record whose id or processnumber exists already fails its transaction.
 */
export async function insertRecords(
  db: DynamoDBDocumentClient,
  tableName: string,
  records: readonly NewRecord[],
): Promise<void> {
  const links = insertedLinks(records);
  const chunks: { one: NewRecord; items: Item[] }[][] = [[]];
  let actions = 0;
  let bytes = 0;
  for (const one of records) {
    const items = newItems(one, links);
    const size = JSON.stringify(one.record).length;
    if (
      actions + items.length > MAX_RECORD_ACTIONS_PER_TRANSACTION ||
      (actions > 0 && bytes + size > MAX_RECORD_BYTES_PER_TRANSACTION)
    ) {
      chunks.push([]);
      actions = 0;
      bytes = 0;
    }
    chunks.at(-1)?.push({ one, items });
    actions += items.length;
    bytes += size;
  }
  for (const chunk of chunks) {
    await db.send(
      new TransactWriteCommand({
        TransactItems: [
          ...chunk.flatMap(({ items }) =>
            items.map((Item) => ({
              Put: { TableName: tableName, Item, ConditionExpression: 'attribute_not_exists(pk)' },
            })),
          ),
          ...countChanges(
            tableName,
            chunk.map(({ one }) => one),
          ),
        ],
      }),
    );
  }
}

/** The changes of the groups' counts that inserting `records` makes: one action a group. */
export function countChanges(tableName: string, records: readonly NewRecord[]) {
  const added = new Map<RecordGroup, number>();
  for (const { group } of records) added.set(group, (added.get(group) ?? 0) + 1);
  return [...added].map(([group, n]) => countChange(tableName, group, n));
}

/**
 * The items a new record of an inserted set writes: its own, with the links the set gives it, its
 * claims, and what files it under the records it names.
 */
export function newItems({ group, record }: NewRecord, linksOf: Map<string, Item>): Item[] {
  const id = recordId(group, record);
  const item = { ...recordItem(group, record, 1), ...linksOf.get(`${group}#${id}`) };
  const naturalKey = naturalKeyOf(group, record);
  return [
    item,
    ...('processnumber' in record ? [{ ...keys.processnumber(group, record.processnumber), id }] : []),
    ...(naturalKey === undefined ? [] : [{ ...keys.naturalKey(group, naturalKey), id }]),
    ...filedUnder(group, id, record),
  ];
}

/**
 * The internal attributes each record of an inserted set gets from the others (record-links.ts), by
 * `<group>#<id>`: a student's tutors, the count of records naming a session, course or organisation, and
 * the enrollments a class and a person list, with when they last changed. Throws if a record names one
 * outside the set.
 */
export function insertedLinks(records: readonly NewRecord[]): Map<string, Item> {
  const present = new Set(records.map(({ group, record }) => `${group}#${recordId(group, record)}`));
  const links = new Map<string, Item>();
  const on = (group: RecordGroup, id: string) => {
    const key = `${group}#${id}`;
    if (!present.has(key)) throw new Error(`An inserted record names ${key}, which is not in the set`);
    const item = links.get(key) ?? { [internal.links]: 0 };
    links.set(key, item);
    return item;
  };
  for (const { group, record } of records) {
    for (const link of linksOf(group, recordId(group, record), record)) {
      const item = on(link.group, link.id);
      if (link.entry === undefined) {
        item[link.attribute] = Number(item[link.attribute] ?? 0) + 1;
        continue;
      }
      item[link.attribute] = new Set([...((item[link.attribute] as Set<string>) ?? []), link.entry]);
      if (link.attribute === internal.enrollments) {
        const at = item[internal.enrolledAt] as string | undefined;
        if (!at || at < record.updated_at) item[internal.enrolledAt] = record.updated_at;
      }
    }
  }
  // What the set adds up to on the records keeping its groups' tallies (tallies.ts).
  for (const group of talliedGroups) {
    const keeper = tallyKeeper(group) as Reference;
    const ofGroup = records.filter((one) => one.group === group).map((one) => one.record);
    for (const [id, counts] of tallyTotals(group, ofGroup))
      Object.assign(on(keeper.group, id), Object.fromEntries(counts));
  }
  return links;
}
