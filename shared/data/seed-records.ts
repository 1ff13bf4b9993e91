// The demo seed's write: a set of new, mutually consistent records, as RecordRepository.insert writes
// them, into a table that holds no records yet. The same items go in batches rather than transactions,
// and each group's count once: a seed stopped part-way is made again from an empty table (its seed
// marker comes last), so the transactions' all-or-nothing would buy it nothing, and batches write some
// three times as fast on DynamoDB Local. A module of its own, so the handlers' bundles do not carry it.
import { BatchWriteCommand, type DynamoDBDocumentClient, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { RecordGroup } from '../domain/groups';
import { countChange } from './record-items';
import { insertedLinks, type NewRecord, newItems } from './record-repository';

/** DynamoDB writes at most 25 items in one BatchWriteItem. */
const MAX_ITEMS_PER_BATCH_WRITE = 25;
/** BatchWriteItem requests a seed sends at once. */
const BATCH_WRITES_AT_ONCE = 8;

export async function seedRecords(
  db: DynamoDBDocumentClient,
  tableName: string,
  records: readonly NewRecord[],
): Promise<void> {
  const linksOf = insertedLinks(records);
  const items = records.flatMap((one) => newItems(one, linksOf));
  // Where insert's conditions would refuse a repeated id or processnumber, a batch would overwrite it.
  const written = new Set<string>();
  for (const { pk, sk } of items) {
    const key = `${pk}\u0000${sk}`;
    if (written.has(key)) throw new Error(`A seeded set writes the item ${pk} ${sk} twice`);
    written.add(key);
  }
  const requests = items.map((Item) => ({ PutRequest: { Item } }));
  const batches: (typeof requests)[] = [];
  for (let at = 0; at < requests.length; at += MAX_ITEMS_PER_BATCH_WRITE)
    batches.push(requests.slice(at, at + MAX_ITEMS_PER_BATCH_WRITE));
  let next = 0;
  const worker = async () => {
    while (next < batches.length) {
      let pending: Record<string, (typeof requests)[number][]> | undefined = {
        [tableName]: batches[next++] as typeof requests,
      };
      while (pending && Object.keys(pending).length > 0) {
        const { UnprocessedItems } = await db.send(new BatchWriteCommand({ RequestItems: pending }));
        pending = UnprocessedItems as typeof pending;
      }
    }
  };
  await Promise.all(Array.from({ length: BATCH_WRITES_AT_ONCE }, worker));
  const added = new Map<RecordGroup, number>();
  for (const { group } of records) added.set(group, (added.get(group) ?? 0) + 1);
  await db.send(
    new TransactWriteCommand({
      TransactItems: [...added].map(([group, n]) => countChange(tableName, group, n)),
    }),
  );
}
