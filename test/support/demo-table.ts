// The demo tenant is seeded once per test run, into a template table on the shared DynamoDB Local (the
// global setup does it), and each test API starts on a copy of it: copying the items takes a few
// seconds where seeding them through the record repository takes ten or more, and a copy leaves every
// file free to write. The copy holds all a seeded tenant is (records, signing key, clients, accounts,
// seed marker), so the local run finds it seeded and signs and verifies with the copied key.
import {
  type AttributeValue,
  BatchWriteItemCommand,
  type BatchWriteItemCommandInput,
  ScanCommand,
  type WriteRequest,
} from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { bootstrapDemoTenant, DEMO_REDIRECT_URIS, ensureTable } from '../../infra/local/bootstrap';
import { DEMO_USER_PASSWORD } from '../../infra/local/local-run';
import { itemKinds } from '../../shared/data/item-kinds';

export const DEMO_SECRET = 'test-secret';
export const TEMPLATE_TABLE = 'school-test-template';

/** Seeds the template every test API copies. */
export async function seedTemplateTable(db: DynamoDBDocumentClient): Promise<void> {
  await bootstrapDemoTenant(db, TEMPLATE_TABLE, {
    clientSecret: DEMO_SECRET,
    userPassword: DEMO_USER_PASSWORD,
    redirectUris: DEMO_REDIRECT_URIS,
    stream: false,
  });
}

/** Scan segments read at once; each writes its pages as it reads them. */
const SEGMENTS = 4;
/** DynamoDB's most items in one BatchWriteItem. */
const BATCH_SIZE = 25;
/** BatchWriteItem requests a segment has in flight at once. */
const BATCHES_AT_ONCE = 12;

type Item = Record<string, AttributeValue>;

/** Makes `tableName` from the table design (its stream only if `stream`) and fills it with the template's items. */
export async function copyTemplateTable(
  db: DynamoDBDocumentClient,
  tableName: string,
  { stream }: { stream: boolean },
): Promise<void> {
  await ensureTable(db, tableName, { stream });
  await copyItems(db, tableName, () => true);
}

/** The partitions of what a deploy or an operator makes for a tenant: its signing key, clients and accounts. */
const notSeeded = new Set<string>(
  [itemKinds.privateKey, itemKinds.publicKey, itemKinds.client, itemKinds.user, itemKinds.login].map(
    (kind) => kind.partition,
  ),
);

/**
 * What seeding the demo records writes, copied from the template into the existing table `tableName`,
 * as it was made (a deployed stack's, say): the records, their counters and claims, and the seed marker;
 * not the template's signing key, clients or accounts.
 */
export async function copyTemplateRecords(db: DynamoDBDocumentClient, tableName: string): Promise<void> {
  await copyItems(db, tableName, (item) => !notSeeded.has(item.pk?.S ?? ''));
}

async function copyItems(db: DynamoDBDocumentClient, tableName: string, keep: (item: Item) => boolean) {
  await Promise.all(
    Array.from({ length: SEGMENTS }, (_, segment) => copySegment(db, tableName, segment, keep)),
  );
}

async function copySegment(
  db: DynamoDBDocumentClient,
  tableName: string,
  segment: number,
  keep: (item: Item) => boolean,
) {
  let start: Record<string, never> | undefined;
  do {
    const page = await db.send(
      new ScanCommand({
        TableName: TEMPLATE_TABLE,
        Segment: segment,
        TotalSegments: SEGMENTS,
        ConsistentRead: true,
        ExclusiveStartKey: start,
      }),
    );
    const requests: WriteRequest[] = (page.Items ?? [])
      .filter(keep)
      .map((Item) => ({ PutRequest: { Item } }));
    // A few batches in flight a segment, within the client's 50 sockets for all the segments together.
    const step = BATCH_SIZE * BATCHES_AT_ONCE;
    for (let from = 0; from < requests.length; from += step) {
      const batches = [];
      for (let at = from; at < Math.min(from + step, requests.length); at += BATCH_SIZE)
        batches.push(writeAll(db, { RequestItems: { [tableName]: requests.slice(at, at + BATCH_SIZE) } }));
      await Promise.all(batches);
    }
    start = page.LastEvaluatedKey as Record<string, never> | undefined;
  } while (start);
}

/** DynamoDB may leave part of a batch unwritten; what it hands back is sent again. */
async function writeAll(db: DynamoDBDocumentClient, input: BatchWriteItemCommandInput) {
  let pending: BatchWriteItemCommandInput['RequestItems'] = input.RequestItems;
  while (pending && Object.keys(pending).length > 0) {
    const { UnprocessedItems } = await db.send(new BatchWriteItemCommand({ RequestItems: pending }));
    pending = UnprocessedItems;
  }
}
