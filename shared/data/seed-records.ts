// The demo seed's write: a set of new, mutually consistent records, as RecordRepository.insert writes
// them, into a table that holds no records yet. The same items go in batches rather than transactions,
// and each group's count once: a seed stopped part-way is made again from an empty table (its seed
// marker comes last), so the transactions' all-or-nothing would buy it nothing, and batches write some
// three times as fast on DynamoDB Local. A module of its own, so the handlers' bundles do not carry it.
import { type DynamoDBDocumentClient, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { putInBatches } from './items';
import { countChanges, insertedLinks, type NewRecord, newItems } from './record-repository';

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
  await putInBatches(db, tableName, items, BATCH_WRITES_AT_ONCE);
  await db.send(new TransactWriteCommand({ TransactItems: countChanges(tableName, records) }));
}
