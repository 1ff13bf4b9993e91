// Prepares a tenant's table for the local run and the tests: creates it from the shared table design,
// publishes a signing key when there is none, registers the demo client, and seeds the demo records
// once, on first start with an empty table: the demo school, or a generated district. A table whose
// seeding never finished (the first start was stopped part-way) is made again from the start, or, for
// a district, whose import resumes, seeded on from where it stopped.

import { randomUUID } from 'node:crypto';
import {
  CreateTableCommand,
  DeleteTableCommand,
  DescribeTableCommand,
  ResourceNotFoundException,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
  waitUntilTableExists,
  waitUntilTableNotExists,
} from '@aws-sdk/client-dynamodb';
import { type DynamoDBDocumentClient, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { hashSecret } from '../../shared/auth/secret-hash';
import { generateSigningKey } from '../../shared/auth/signing-keys';
import { ClientRepository } from '../../shared/data/client-repository';
import { filingGroups } from '../../shared/data/filings';
import { keys } from '../../shared/data/keys';
import { listedGroups } from '../../shared/data/listings';
import { seedRecords } from '../../shared/data/seed-records';
import { SigningKeyRepository } from '../../shared/data/signing-key-repository';
import {
  createTableInput,
  indexNames,
  missingIndexUpdates,
  tableDefinition,
  tableDesign,
} from '../../shared/data/table';
import { loginName, UserRepository } from '../../shared/data/user-repository';
import { type RecordGroup, scopes } from '../../shared/domain/groups';
import { LIMITS } from '../../shared/domain/limits';
import { fileAgain, listAgain } from '../cli/admin/listings';
import { demoTenant } from './seed/demo-tenant';
import { type DemoUser, demoUsers } from './seed/demo-users';
import { seedDistrict } from './seed/district-seed';

export const DEMO_CLIENT_ID = 'demo-client';
/** A public client (no secret, PKCE only), as a phone app or a single-page portal would be. */
export const DEMO_APP_ID = 'demo-app';
/** Where the demo clients may send a person back after sign-in (DEMO_REDIRECT_URIS overrides). */
export const DEMO_REDIRECT_URIS = ['http://127.0.0.1:8976/callback', 'http://localhost:8976/callback'];
/** Where the demo clients may send a person after logout: beside each redirect URI, at /signed-out. */
export const demoPostLogoutUris = (redirectUris: string[]) =>
  redirectUris.map((uri) => new URL('/signed-out', uri).href);

/**
 * Makes the table, or brings one made by an earlier version up to date; with its stream only where change
 * events are read from it (`stream`). Each caller says which: on DynamoDB Local every write to a table with
 * a stream costs more the more stream records all of its tables hold (a copy of the demo tenant into a
 * table with a stream was seen to take 4 s, then 29, 59 and 113 s for the next ones), so a table that no
 * change events are read from is made without one.
 */
export async function ensureTable(
  db: DynamoDBDocumentClient,
  tableName: string,
  { stream }: { stream: boolean },
): Promise<boolean> {
  try {
    const { Table } = await db.send(new DescribeTableCommand({ TableName: tableName }));
    await addMissingIndexes(db, tableName, indexNames(Table?.GlobalSecondaryIndexes));
    if (stream && !Table?.StreamSpecification?.StreamEnabled) {
      // A table from before change events: its stream starts now.
      await db.send(
        new UpdateTableCommand({
          TableName: tableName,
          StreamSpecification: tableDefinition.StreamSpecification,
        }),
      );
    }
    return false;
  } catch (error) {
    if (!(error instanceof ResourceNotFoundException)) throw error;
  }
  await db.send(new CreateTableCommand(createTableInput(tableName, { stream })));
  await waitUntilTableExists({ client: db, maxWaitTime: 60 }, { TableName: tableName });
  await db.send(
    new UpdateTimeToLiveCommand({
      TableName: tableName,
      TimeToLiveSpecification: { AttributeName: tableDesign.timeToLiveAttribute, Enabled: true },
    }),
  );
  return true;
}

/**
 * A table kept from an earlier version gets the indexes added since, one at a time as DynamoDB wants;
 * its records get their listing entries when the listings index is new.
 */
async function addMissingIndexes(db: DynamoDBDocumentClient, tableName: string, present: unknown[]) {
  for (const update of missingIndexUpdates(tableName, present)) {
    await db.send(new UpdateTableCommand(update));
    await untilIndexesActive(db, tableName);
  }
  if (!present.includes(tableDesign.listingsIndex.name)) await listAgain(db, tableName);
}

/**
 * Waits while a new index fills from the table's items: the table itself stays ACTIVE meanwhile, and a
 * Query of an index still CREATING fails.
 */
async function untilIndexesActive(db: DynamoDBDocumentClient, tableName: string) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const { Table } = await db.send(new DescribeTableCommand({ TableName: tableName }));
    const indexes = Table?.GlobalSecondaryIndexes ?? [];
    if (Table?.TableStatus === 'ACTIVE' && indexes.every((index) => index.IndexStatus === 'ACTIVE')) return;
    if (Date.now() > deadline) throw new Error(`The indexes of ${tableName} are not active after 60 s`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

export async function ensureSigningKey(db: DynamoDBDocumentClient, tableName: string): Promise<void> {
  const repository = new SigningKeyRepository(db, tableName);
  if (await repository.newestPrivateKey()) return;
  const { privateKey, publicKey } = await generateSigningKey();
  await repository.add(privateKey, publicKey);
}

export async function registerDemoClients(
  db: DynamoDBDocumentClient,
  tableName: string,
  secret: string,
  redirectUris: string[],
) {
  const clients = new ClientRepository(db, tableName);
  const common = {
    scopes: [...scopes],
    status: 'active' as const,
    created_at: new Date().toISOString(),
    redirect_uris: redirectUris,
    post_logout_redirect_uris: demoPostLogoutUris(redirectUris),
    // The most a client may be given: the tests and the benchmark send far more than a vendor's budget.
    rate_limit: LIMITS.maxClientRequestsPerMinute,
  };
  await clients.put({
    ...common,
    client_id: DEMO_CLIENT_ID,
    name: 'Demo client (local run only)',
    secret_hash: await hashSecret(secret),
    grant_types: ['client_credentials', 'authorization_code', 'refresh_token'],
  });
  await clients.put({
    ...common,
    client_id: DEMO_APP_ID,
    name: 'Demo app, a public client (local run only)',
    grant_types: ['authorization_code', 'refresh_token'],
  });
}

/** Creates the demo accounts that are missing and sets every one's password to the demo password. */
export async function registerDemoUsers(
  db: DynamoDBDocumentClient,
  tableName: string,
  password: string,
): Promise<DemoUser[]> {
  const users = new UserRepository(db, tableName);
  const accounts = demoUsers(demoTenant());
  const passwordHash = await hashSecret(password);
  for (const account of accounts) {
    const existing = await users.byLogin(account.username);
    if (existing) {
      await users.update(existing.user_id, { password_hash: passwordHash });
      continue;
    }
    const now = new Date().toISOString();
    await users.create({
      user_id: randomUUID(),
      username: loginName(account.username),
      email: loginName(account.email),
      password_hash: passwordHash,
      status: 'active',
      entity_id: account.entity_id,
      admin: account.admin,
      created_at: now,
      updated_at: now,
    });
  }
  return accounts;
}

/** Whether the table exists without the seed marker, which is written only once seeding has finished. */
async function seedUnfinished(db: DynamoDBDocumentClient, tableName: string): Promise<boolean> {
  try {
    const { Item } = await db.send(
      new GetCommand({ TableName: tableName, Key: keys.seedMarker, ConsistentRead: true }),
    );
    return Item === undefined;
  } catch (error) {
    if (error instanceof ResourceNotFoundException) return false;
    throw error;
  }
}

async function dropTable(db: DynamoDBDocumentClient, tableName: string): Promise<void> {
  await db.send(new DeleteTableCommand({ TableName: tableName }));
  await waitUntilTableNotExists({ client: db, maxWaitTime: 60 }, { TableName: tableName });
}

/** A generated district to seed instead of the demo school, with the tenant its ids derive from. */
export interface DistrictSeed {
  students: number;
  tenantId: string;
}

/** What the seed marker says was seeded. */
const seedOf = (district: DistrictSeed | undefined) =>
  district === undefined ? 'the demo school' : `a district of ${district.students} students`;

/** Seeds the demo school, or a generated district, unless a seed already ran; returns whether it seeded. */
export async function seedDemoRecords(
  db: DynamoDBDocumentClient,
  tableName: string,
  report: (line: string) => void = () => {},
  district?: DistrictSeed,
): Promise<boolean> {
  const { Item } = await db.send(
    new GetCommand({ TableName: tableName, Key: keys.seedMarker, ConsistentRead: true }),
  );
  const seed = seedOf(district);
  if (Item) {
    const had = typeof Item.seed === 'string' ? Item.seed : seedOf(undefined);
    if (had !== seed)
      report(`The table holds ${had}, seeded before: give DATA_DIR another folder for ${seed}`);
    await listAddedListings(db, tableName, Item, report);
    return false;
  }
  if (district === undefined) {
    report('Seeding the demo tenant (first start; if stopped now, the next start seeds it again)');
    await seedRecords(db, tableName, demoTenant());
  } else {
    await seedDistrict(db, tableName, district.tenantId, district.students, report);
  }
  await db.send(
    new PutCommand({
      TableName: tableName,
      Item: {
        ...keys.seedMarker,
        seeded_at: new Date().toISOString(),
        seed,
        listed: [...listedGroups],
        filed: [...filingGroups],
      },
    }),
  );
  return true;
}

/**
 * Gives the records of the groups listed since the table was seeded (its seed marker's `listed`; every
 * group, for a marker from before it said) their listing entries, and files those of the groups filed
 * under what they name since (its `filed`), once: what `records list-again` does for a deployed table.
 */
async function listAddedListings(
  db: DynamoDBDocumentClient,
  tableName: string,
  marker: Record<string, unknown>,
  report: (line: string) => void,
) {
  const missing = (groups: readonly RecordGroup[], had: unknown) =>
    groups.filter((group) => !(Array.isArray(had) ? (had as unknown[]) : []).includes(group));
  const listing = missing(listedGroups, marker.listed);
  const filing = missing(filingGroups, marker.filed);
  if (listing.length === 0 && filing.length === 0) return;
  if (listing.length > 0) {
    report(`Listing the ${listing.join(', ')} kept in this table, as this version lists them (once)`);
    await listAgain(db, tableName, listing);
  }
  if (filing.length > 0) {
    report(`Filing the ${filing.join(', ')} kept in this table under what they name (once)`);
    await fileAgain(db, tableName, filing);
  }
  await db.send(
    new UpdateCommand({
      TableName: tableName,
      Key: keys.seedMarker,
      UpdateExpression: 'SET listed = :listed, filed = :filed',
      ExpressionAttributeValues: { ':listed': [...listedGroups], ':filed': [...filingGroups] },
    }),
  );
}

export interface DemoSettings {
  clientSecret: string;
  userPassword: string;
  redirectUris: string[];
  /** Seeds a generated district instead of the demo school (`DEMO_SIZE`). */
  district?: DistrictSeed | undefined;
  /** Whether the table has its stream: change events are read from it (false: see `ensureTable`). */
  stream: boolean;
}

/** Makes the tenant ready; `report` hears what a person waiting for the start would want to know. */
export async function bootstrapDemoTenant(
  db: DynamoDBDocumentClient,
  tableName: string,
  demo: DemoSettings,
  report: (line: string) => void = () => {},
) {
  if (await seedUnfinished(db, tableName)) {
    if (demo.district) {
      report(`The district's seeding did not finish last time: its import goes on where it stopped`);
    } else {
      report(`The demo tenant's seeding did not finish last time: making table ${tableName} again`);
      await dropTable(db, tableName);
    }
  }
  await ensureTable(db, tableName, { stream: demo.stream });
  await ensureSigningKey(db, tableName);
  await registerDemoClients(db, tableName, demo.clientSecret, demo.redirectUris);
  const seeded = await seedDemoRecords(db, tableName, report, demo.district);
  // The demo accounts are people of the demo school; a generated district has none of them.
  const users = demo.district ? [] : await registerDemoUsers(db, tableName, demo.userPassword);
  return { seeded, users };
}
