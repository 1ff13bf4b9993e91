// How a process's list of revoked sign-ins ages, on a clock the test moves: read on the first person's
// token, used until it is older than the refresh period, read again then; a failed re-read is covered by
// the list in hand only while that is younger than the bound docs/sso.md promises.
import { describe, expect, it } from 'vitest';
import type { Revocations } from '../data/revocation-repository';
import type { AccessToken } from './access-token';
import { REVOCATION_BOUND_MS, RevokedSignIns } from './revoked-sign-ins';

const REFRESH_SECONDS = 20;
const TTL_SECONDS = 900;
const START = Date.parse('2026-03-01T08:00:00Z');

function clock() {
  let now = START;
  return {
    now: () => now,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

/** The REVOKED partition in memory: what was revoked and when, the reads it answered, and an outage switch. */
function table(time: ReturnType<typeof clock>) {
  const state = {
    signIns: [] as { sid: string; at: number }[],
    accounts: [] as { userId: string; at: number }[],
    /** When each read was made, and from when it asked. */
    reads: [] as { at: number; since: number }[],
    failing: false,
    async since(since: Date): Promise<Revocations> {
      state.reads.push({ at: time.now(), since: since.getTime() });
      if (state.failing) throw new Error('the table cannot be read');
      const from = since.getTime();
      return {
        signIns: new Set(state.signIns.filter((s) => s.at > from).map((s) => s.sid)),
        signedOut: new Map(
          state.accounts.filter((a) => a.at > from).map((a) => [a.userId, Math.floor(a.at / 1000)]),
        ),
      };
    },
  };
  return state;
}

const personToken = (sid: string | undefined, issuedAt = Math.floor(START / 1000)): AccessToken => ({
  sub: 'user-1',
  clientId: 'app',
  tenantId: 'escola-teste',
  scopes: ['students:read'],
  issuedAt,
  expiresAt: issuedAt + TTL_SECONDS,
  jti: 'jti',
  person: { userId: 'user-1', entityId: 'entity-1', roles: ['teacher'], ...(sid ? { signIn: sid } : {}) },
});

function setUp() {
  const time = clock();
  const source = table(time);
  const revoked = new RevokedSignIns(
    source,
    { accessTokenTtlSeconds: TTL_SECONDS, revocationRefreshSeconds: REFRESH_SECONDS },
    time.now,
  );
  return { time, source, revoked };
}

describe('the revoked sign-ins a process keeps', () => {
  it('reads them on the first person token, not for a client token, and not again within the period', async () => {
    const { time, source, revoked } = setUp();
    const client = { ...personToken(undefined) };
    delete client.person;
    expect(await revoked.isRevoked(client)).toBe(false);
    expect(source.reads).toEqual([]);
    expect(await revoked.isRevoked(personToken('sign-in-a'))).toBe(false);
    source.signIns.push({ sid: 'sign-in-a', at: time.now() });
    time.advance(REFRESH_SECONDS * 1000 - 1);
    expect(await revoked.isRevoked(personToken('sign-in-a'))).toBe(false);
    expect(source.reads).toHaveLength(1);
  });

  it('sees a revocation on the first request once the list is a refresh period old', async () => {
    const { time, source, revoked } = setUp();
    await revoked.isRevoked(personToken('sign-in-a'));
    source.signIns.push({ sid: 'sign-in-a', at: time.now() + 1 });
    time.advance(REFRESH_SECONDS * 1000);
    expect(await revoked.isRevoked(personToken('sign-in-a'))).toBe(true);
    expect(await revoked.isRevoked(personToken('sign-in-b'))).toBe(false);
    expect(source.reads).toHaveLength(2);
  });

  it("refuses an account's tokens issued before its sign-out, at whole seconds, whatever their sign-in", async () => {
    const { time, source, revoked } = setUp();
    const issued = Math.floor(time.now() / 1000);
    time.advance(5_000);
    source.accounts.push({ userId: 'user-1', at: time.now() });
    expect(await revoked.isRevoked(personToken('sign-in-a', issued))).toBe(true);
    expect(await revoked.isRevoked(personToken(undefined, issued))).toBe(true);
    expect(await revoked.isRevoked(personToken('sign-in-b', Math.floor(time.now() / 1000)))).toBe(false);
  });

  it('reads only as far back as a token can live', async () => {
    const { time, source, revoked } = setUp();
    await revoked.isRevoked(personToken('sign-in-a'));
    expect(source.reads).toEqual([{ at: START, since: START - (TTL_SECONDS + 60) * 1000 }]);
    source.signIns.push({ sid: 'old', at: time.now() });
    time.advance((TTL_SECONDS + 61) * 1000);
    expect(await revoked.isRevoked(personToken('old', Math.floor(time.now() / 1000)))).toBe(false);
  });

  it('keeps using the list in hand while a re-read fails, up to the bound, then fails the request', async () => {
    const { time, source, revoked } = setUp();
    source.signIns.push({ sid: 'sign-in-a', at: time.now() - 1 });
    expect(await revoked.isRevoked(personToken('sign-in-a'))).toBe(true);
    source.failing = true;
    time.advance(REFRESH_SECONDS * 1000);
    expect(await revoked.isRevoked(personToken('sign-in-a'))).toBe(true);
    time.advance(REVOCATION_BOUND_MS - REFRESH_SECONDS * 1000 - 1);
    expect(await revoked.isRevoked(personToken('sign-in-b'))).toBe(false);
    time.advance(1);
    await expect(revoked.isRevoked(personToken('sign-in-b'))).rejects.toThrow('cannot be read');
    source.failing = false;
    expect(await revoked.isRevoked(personToken('sign-in-a'))).toBe(true);
  });

  it('reads on every person token with a refresh period of 0', async () => {
    const time = clock();
    const source = table(time);
    const revoked = new RevokedSignIns(
      source,
      { accessTokenTtlSeconds: TTL_SECONDS, revocationRefreshSeconds: 0 },
      time.now,
    );
    await revoked.isRevoked(personToken('sign-in-a'));
    source.signIns.push({ sid: 'sign-in-a', at: time.now() });
    expect(await revoked.isRevoked(personToken('sign-in-a'))).toBe(true);
    expect(source.reads).toHaveLength(2);
  });
});
