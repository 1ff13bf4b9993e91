// What every route keeps of the tenant's clients, read from a real table on a clock the test moves: a
// disabled client's tokens from before it was disabled are refused (and stay refused once it is enabled
// again), a client disabled before disabling was dated refuses every token, and a client registered
// after the last read is found on its first token's request with one read more, not one per request.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ensureTable } from '../../infra/local/bootstrap';
import { ClientRepository, type OAuthClient } from '../data/client-repository';
import { createDocumentClient } from '../data/document-client';
import type { AccessToken } from './access-token';
import { ClientPolicies } from './client-policies';

const tableName = `client-policies-${Date.now()}`;
const db = createDocumentClient({ region: 'eu-west-1', endpoint: inject('dynamodbEndpoint') });
const clients = new ClientRepository(db, tableName);

beforeAll(() => ensureTable(db, tableName, { stream: false }));
afterAll(() => db.destroy());

const START = Date.parse('2026-03-01T08:00:00Z');
const seconds = (ms: number) => Math.floor(ms / 1000);

function setUp() {
  let now = START;
  let reads = 0;
  const source = {
    policies: () => {
      reads++;
      return clients.policies();
    },
  };
  return {
    policies: new ClientPolicies(source, { revocationRefreshSeconds: 20 }, () => now),
    advance: (ms: number) => {
      now += ms;
    },
    now: () => now,
    reads: () => reads,
  };
}

const client = (id: string, extra: Partial<OAuthClient> = {}): OAuthClient => ({
  client_id: id,
  name: id,
  scopes: ['students:read'],
  status: 'active',
  created_at: new Date(START).toISOString(),
  ...extra,
});

const tokenOf = (clientId: string, issuedAt: number): AccessToken => ({
  sub: clientId,
  clientId,
  tenantId: 'test',
  scopes: [],
  issuedAt,
  expiresAt: issuedAt + 900,
  jti: `${clientId}-${issuedAt}`,
});

describe('client policies', () => {
  it("refuse a disabled client's tokens issued until it was disabled, and only those", async () => {
    const time = setUp();
    await clients.put(client('portal', { rate_limit: 300 }));
    const before = tokenOf('portal', seconds(time.now()));
    expect(await time.policies.refusal(before)).toBeUndefined();
    expect((await time.policies.of(before))?.rate_limit).toBe(300);

    time.advance(5_000);
    await clients.revoke('portal', new Date(time.now()).toISOString());
    time.advance(20_000);
    expect(await time.policies.refusal(before)).toBe('its client has been disabled');

    await clients.replace(
      'portal',
      { name: 'portal', scopes: ['students:read'] },
      'active',
      new Date(time.now()).toISOString(),
      false,
    );
    time.advance(20_000);
    expect(await time.policies.refusal(before)).toBe('its client has been disabled');
    expect(await time.policies.refusal(tokenOf('portal', seconds(time.now())))).toBeUndefined();
  });

  it('refuse every token of a client revoked before revocations were dated', async () => {
    const time = setUp();
    await clients.put(client('legacy', { status: 'revoked' }));
    expect(await time.policies.refusal(tokenOf('legacy', seconds(time.now())))).toBe(
      'its client has been disabled',
    );
  });

  it('find a client registered since the last read with one read more, and do not read for one that is not there', async () => {
    const time = setUp();
    await clients.put(client('first'));
    await time.policies.of(tokenOf('first', seconds(time.now())));
    expect(time.reads()).toBe(1);

    time.advance(2_000);
    await clients.put(client('newcomer', { rate_limit: 60 }));
    const newcomer = tokenOf('newcomer', seconds(time.now()));
    expect((await time.policies.of(newcomer))?.rate_limit).toBe(60);
    expect(time.reads()).toBe(2);
    expect((await time.policies.of(newcomer))?.rate_limit).toBe(60);
    expect(time.reads()).toBe(2);

    // A token of a client the table does not hold, issued before the last read: nothing to read again for.
    time.advance(2_000);
    expect(await time.policies.of(tokenOf('unknown', seconds(time.now()) - 10))).toBeUndefined();
    expect(time.reads()).toBe(2);
  });
});
