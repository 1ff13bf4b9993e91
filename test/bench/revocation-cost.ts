// Section 2, the revocation check: what refusing revoked sign-ins on every route costs a read. One student
// by id through the whole stack, in turns with a person's token (a sign-in the verifier checks against
// the revocations it keeps) and the client's token (never checked), with the REVOKED partition holding a
// busy quarter hour of revocations. In process, the look-up alone, and the Query that refreshes the list
// once every REVOCATION_REFRESH_SECONDS.
import { randomUUID } from 'node:crypto';
import { BatchWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { DEMO_CLIENT_ID } from '../../infra/local/bootstrap';
import type { AccessToken } from '../../shared/auth/access-token';
import { rolesOf } from '../../shared/auth/person';
import { RevokedSignIns } from '../../shared/auth/revoked-sign-ins';
import { scopesOfRoles } from '../../shared/auth/roles';
import { parseConfig } from '../../shared/config';
import { itemKinds } from '../../shared/data/item-kinds';
import { ItemStore } from '../../shared/data/items';
import { RecordRepository } from '../../shared/data/record-repository';
import { RevocationRepository, revocationItems } from '../../shared/data/revocation-repository';
import { UserRepository } from '../../shared/data/user-repository';
import { localIssuer } from '../support/person-token';
import type { HttpClient } from './http-client';
import { currentLoad } from './machine';
import { type Latency, latency, medianOf, round } from './stats';
import type { Workload } from './workload';

/** Held to: a person's get by id at most this many ms over the client's, at p50. */
export const REVOCATION_TARGET_MS = 0.2;
/** Revocations in the partition while measuring: sign-ins, and accounts signed out. */
const REVOKED = { signIns: 300, accounts: 30 };

export interface RevocationCost {
  revokedSignIns: number;
  signedOutAccounts: number;
  /** Get by id through the stack with the client's token, which is never checked. */
  client: Latency;
  /** The same with a person's token, checked against the revocations in memory. */
  person: Latency;
  /** Person p50 minus client p50: the check, and whatever else a person's token costs, judged. */
  addedMs: number;
  /** In process: one check against a list in hand, microseconds. */
  checkUs: Latency;
  /** In process: the Query that reads the list again, milliseconds. */
  refresh: Latency;
  refreshSeconds: number;
  /** The machine's load average when the section ended: it may run apart from the rest of the bench. */
  loadAverage: number;
  met: boolean;
}

async function seedRevocations(db: DynamoDBDocumentClient, tableName: string) {
  const at = new Date().toISOString();
  const store = new ItemStore(db, tableName);
  const items = [
    ...Array.from({ length: REVOKED.signIns }, () => revocationItems.signIn(randomUUID(), at)),
    ...Array.from({ length: REVOKED.accounts }, () => revocationItems.account(randomUUID(), at)),
  ].map(({ key, attributes }) => store.putInput(itemKinds.revocation, key, attributes).Item);
  for (let i = 0; i < items.length; i += 25) {
    const batch = items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } }));
    await db.send(new BatchWriteCommand({ RequestItems: { [tableName]: batch } }));
  }
}

/** A token of the demo administrator's, from a sign-in of its own, as the code flow issues it. */
async function adminToken(db: DynamoDBDocumentClient, tableName: string, url: string) {
  const user = await new UserRepository(db, tableName).byLogin('admin');
  if (!user) throw new Error('the demo tenant has no admin account');
  const entity = (await new RecordRepository(db, tableName).get('entities', user.entity_id))?.record;
  const roles = rolesOf(user, entity);
  const person = { userId: user.user_id, entityId: user.entity_id, roles, signIn: randomUUID() };
  const { token } = await localIssuer(db, tableName, url).issue({
    subject: user.user_id,
    clientId: DEMO_CLIENT_ID,
    scopes: scopesOfRoles(roles),
    person,
  });
  const claims: AccessToken = {
    sub: user.user_id,
    clientId: DEMO_CLIENT_ID,
    tenantId: 'demo',
    scopes: scopesOfRoles(roles),
    issuedAt: Math.floor(Date.now() / 1000),
    expiresAt: Math.floor(Date.now() / 1000) + 900,
    jti: randomUUID(),
    person,
  };
  return { token, claims };
}

/** The look-up and the refreshing Query in process, on the same table. */
async function inProcess(
  db: DynamoDBDocumentClient,
  tableName: string,
  claims: AccessToken,
  samples: number,
) {
  const { accessTokenTtlSeconds, revocationRefreshSeconds } = parseConfig({
    TABLE_NAME: tableName,
    TENANT_ID: 'demo',
    TENANT_NAME: 'Demo',
    PUBLIC_BASE_URL: 'http://127.0.0.1',
    // Required of every function; this measurement signs no cursor.
    CURSOR_KEY: 'k'.repeat(32),
  });
  const repository = new RevocationRepository(db, tableName);
  const since = () => new Date(Date.now() - (accessTokenTtlSeconds + 60) * 1000);
  const reads: number[] = [];
  for (let i = 0; i < Math.ceil(samples / 20) + 5; i++) {
    const start = performance.now();
    await repository.since(since());
    if (i >= 5) reads.push(performance.now() - start);
  }
  const revoked = new RevokedSignIns(repository, { accessTokenTtlSeconds, revocationRefreshSeconds });
  await revoked.isRevoked(claims);
  const checks: number[] = [];
  for (let i = 0; i < samples * 10; i++) {
    const start = performance.now();
    await revoked.isRevoked(claims);
    checks.push((performance.now() - start) * 1000);
  }
  return { refresh: latency(reads), checkUs: latency(checks), refreshSeconds: revocationRefreshSeconds };
}

export async function measureRevocationCost(
  work: Workload,
  stack: HttpClient,
  db: DynamoDBDocumentClient,
  tableName: string,
  url: string,
  options: { warmup: number; samples: number; repeats: number },
): Promise<RevocationCost> {
  await seedRevocations(db, tableName);
  const { token, claims } = await adminToken(db, tableName, url);
  const calls = {
    client: () => stack.send(work.stack.get, { headers: work.headers }),
    person: () => stack.send(work.stack.get, { headers: { authorization: `Bearer ${token}` } }),
  };
  const ways = ['client', 'person'] as const;
  // Alternating which goes first keeps either from always running right after the other.
  const sampleTurn = async (samples: Record<(typeof ways)[number], number[]>, turn: number) => {
    for (const way of turn % 2 === 0 ? ways : [...ways].reverse()) {
      const start = performance.now();
      await calls[way]();
      samples[way].push(performance.now() - start);
    }
  };
  for (let i = 0; i < options.warmup; i++) await sampleTurn({ client: [], person: [] }, i);
  const runs: Record<(typeof ways)[number], Latency[]> = { client: [], person: [] };
  for (let repeat = 0; repeat < options.repeats; repeat++) {
    const samples = { client: [] as number[], person: [] as number[] };
    for (let i = 0; i < options.samples; i++) await sampleTurn(samples, i);
    for (const way of ways) runs[way].push(latency(samples[way]));
  }
  const [client, person] = [medianOf(runs.client), medianOf(runs.person)];
  const local = await inProcess(db, tableName, claims, options.samples);
  const addedMs = round(person.p50 - client.p50);
  return {
    revokedSignIns: REVOKED.signIns,
    signedOutAccounts: REVOKED.accounts,
    client: rounded(client),
    person: rounded(person),
    addedMs,
    checkUs: rounded(local.checkUs),
    refresh: rounded(local.refresh),
    refreshSeconds: local.refreshSeconds,
    loadAverage: currentLoad(),
    met: person.p50 - client.p50 <= REVOCATION_TARGET_MS,
  };
}

const rounded = (l: Latency): Latency => ({ n: l.n, p50: round(l.p50), p95: round(l.p95) });
