// Prepares a tenant's table for the local run and the tests: creates it from the shared table design,
// publishes a signing key when there is none, registers the demo client, and seeds the demo records
// once, on first start with an empty table.
import {
  CreateTableCommand,
  DescribeTableCommand,
  ResourceNotFoundException,
  UpdateTimeToLiveCommand,
  waitUntilTableExists,
} from '@aws-sdk/client-dynamodb';
import { type DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { hashSecret } from '../../shared/auth/secret-hash';
import { generateSigningKey } from '../../shared/auth/signing-keys';
import { ClientRepository } from '../../shared/data/client-repository';
import { keys } from '../../shared/data/keys';
import { RecordRepository } from '../../shared/data/record-repository';
import { SigningKeyRepository } from '../../shared/data/signing-key-repository';
import { createTableInput, tableDesign } from '../../shared/data/table';
import { scopes } from '../../shared/domain/groups';
import { demoTenant } from './seed/demo-tenant';

export const DEMO_CLIENT_ID = 'demo-client';

export async function ensureTable(db: DynamoDBDocumentClient, tableName: string): Promise<boolean> {
  try {
    await db.send(new DescribeTableCommand({ TableName: tableName }));
    return false;
  } catch (error) {
    if (!(error instanceof ResourceNotFoundException)) throw error;
  }
  await db.send(new CreateTableCommand(createTableInput(tableName)));
  await waitUntilTableExists({ client: db, maxWaitTime: 60 }, { TableName: tableName });
  await db.send(
    new UpdateTimeToLiveCommand({
      TableName: tableName,
      TimeToLiveSpecification: { AttributeName: tableDesign.timeToLiveAttribute, Enabled: true },
    }),
  );
  return true;
}

export async function ensureSigningKey(db: DynamoDBDocumentClient, tableName: string): Promise<void> {
  const repository = new SigningKeyRepository(db, tableName);
  if (await repository.newestPrivateKey()) return;
  const { privateKey, publicKey } = await generateSigningKey();
  await repository.add(privateKey, publicKey);
}

export async function registerDemoClient(db: DynamoDBDocumentClient, tableName: string, secret: string) {
  await new ClientRepository(db, tableName).put({
    client_id: DEMO_CLIENT_ID,
    name: 'Demo client (local run only)',
    secret_hash: await hashSecret(secret),
    scopes: [...scopes],
    status: 'active',
    created_at: new Date().toISOString(),
  });
}

/** Seeds the demo records unless a seed already ran; returns whether it seeded. */
export async function seedDemoRecords(db: DynamoDBDocumentClient, tableName: string): Promise<boolean> {
  const { Item } = await db.send(
    new GetCommand({ TableName: tableName, Key: keys.seedMarker, ConsistentRead: true }),
  );
  if (Item) return false;
  try {
    await new RecordRepository(db, tableName).insert(demoTenant());
  } catch (error) {
    throw new Error(
      `Seeding the demo tenant failed; if an earlier start was stopped while seeding, remove the data directory and start again.`,
      { cause: error },
    );
  }
  await db.send(
    new PutCommand({
      TableName: tableName,
      Item: { ...keys.seedMarker, seeded_at: new Date().toISOString() },
    }),
  );
  return true;
}

export async function bootstrapDemoTenant(db: DynamoDBDocumentClient, tableName: string, demoSecret: string) {
  await ensureTable(db, tableName);
  await ensureSigningKey(db, tableName);
  await registerDemoClient(db, tableName, demoSecret);
  return { seeded: await seedDemoRecords(db, tableName) };
}
