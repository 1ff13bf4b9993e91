// Key rotation as the issuer and the verifier see it, on a clock the test moves: the issuer signs with the
// newest key once its cached one is older than the refresh period, the verifier keeps every published key
// and drops a retired one on its next read, and an unknown kid re-reads the key set at most every 30 s.
import { decodeProtectedHeader } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import type { StoredKey } from '../data/signing-key-repository';
import { UnauthorizedError } from '../http/errors';
import { generateSigningKey } from './signing-keys';
import { TokenIssuer, type TokenSettings, TokenVerifier, UNKNOWN_KID_REFRESH_MS } from './tokens';

const REFRESH_SECONDS = 300;
const settings: TokenSettings = {
  issuer: 'https://api.example.org/api/sso',
  audience: 'https://api.example.org/api',
  tenantId: 'escola-teste',
  accessTokenTtlSeconds: 900,
  signingKeyRefreshSeconds: REFRESH_SECONDS,
};
const grant = { subject: 'client-a', clientId: 'client-a', scopes: ['students:read'] };

type Pair = Awaited<ReturnType<typeof generateSigningKey>>;
let first: Pair;
let second: Pair;
beforeAll(async () => {
  first = await generateSigningKey(new Date('2026-01-01T00:00:00Z'));
  second = await generateSigningKey(new Date('2026-02-01T00:00:00Z'));
});

/** A tenant's key store in memory, counting its reads; `failing` makes every read throw. */
function store() {
  const state = {
    privates: [] as StoredKey[],
    publics: [] as StoredKey[],
    privateReads: 0,
    publicReads: 0,
    failing: false,
    publish(pair: Pair) {
      state.privates.unshift(pair.privateKey);
      state.publics.unshift(pair.publicKey);
    },
    retire(pair: Pair) {
      state.privates = state.privates.filter((k) => k.kid !== pair.privateKey.kid);
      state.publics = state.publics.filter((k) => k.kid !== pair.publicKey.kid);
    },
    newestPrivateKey: async () => {
      state.privateReads++;
      if (state.failing) throw new Error('the store is unreachable');
      return state.privates[0];
    },
    publicKeys: async () => {
      state.publicReads++;
      if (state.failing) throw new Error('the store is unreachable');
      return [...state.publics];
    },
  };
  return state;
}

function clock(start = Date.parse('2026-03-01T08:00:00Z')) {
  const at = { ms: start };
  return {
    now: () => at.ms,
    advance(seconds: number) {
      at.ms += seconds * 1000;
    },
  };
}

const kidOf = (token: string) => decodeProtectedHeader(token).kid;

describe('the token issuer', () => {
  it('reads its key once per refresh period and then signs with the newest', async () => {
    const keys = store();
    const time = clock();
    keys.publish(first);
    const issuer = new TokenIssuer(keys, settings, time.now);
    expect(kidOf((await issuer.issue(grant)).token)).toBe(first.privateKey.kid);
    keys.publish(second);
    time.advance(REFRESH_SECONDS - 1);
    expect(kidOf((await issuer.issue(grant)).token)).toBe(first.privateKey.kid);
    expect(keys.privateReads).toBe(1);
    time.advance(1);
    expect(kidOf((await issuer.issue(grant)).token)).toBe(second.privateKey.kid);
    expect(keys.privateReads).toBe(2);
  });

  it('stamps iat and exp from its clock', async () => {
    const keys = store();
    const time = clock();
    keys.publish(first);
    const { token, expiresIn } = await new TokenIssuer(keys, settings, time.now).issue(grant);
    const verified = await new TokenVerifier(keys, settings, time.now).verify(token);
    expect(verified.issuedAt).toBe(time.now() / 1000);
    expect(verified.expiresAt).toBe(time.now() / 1000 + expiresIn);
  });

  it('reads the key for every token when the refresh period is 0', async () => {
    const keys = store();
    keys.publish(first);
    const issuer = new TokenIssuer(keys, { ...settings, signingKeyRefreshSeconds: 0 }, clock().now);
    await issuer.issue(grant);
    keys.publish(second);
    expect(kidOf((await issuer.issue(grant)).token)).toBe(second.privateKey.kid);
    expect(keys.privateReads).toBe(2);
  });

  it('keeps signing with the key in hand when a re-read fails, and tries again at the next token', async () => {
    const keys = store();
    const time = clock();
    keys.publish(first);
    const issuer = new TokenIssuer(keys, settings, time.now);
    await issuer.issue(grant);
    keys.failing = true;
    time.advance(REFRESH_SECONDS);
    expect(kidOf((await issuer.issue(grant)).token)).toBe(first.privateKey.kid);
    keys.failing = false;
    keys.publish(second);
    expect(kidOf((await issuer.issue(grant)).token)).toBe(second.privateKey.kid);
    expect(keys.privateReads).toBe(3);
  });

  it('fails when it has never read a key, and reads again at the next token', async () => {
    const keys = store();
    const issuer = new TokenIssuer(keys, settings, clock().now);
    await expect(issuer.issue(grant)).rejects.toThrow(/no signing key/);
    keys.publish(first);
    expect(kidOf((await issuer.issue(grant)).token)).toBe(first.privateKey.kid);
  });

  it('shares one read between tokens issued at the same time', async () => {
    const keys = store();
    keys.publish(first);
    const issuer = new TokenIssuer(keys, settings, clock().now);
    await Promise.all([issuer.issue(grant), issuer.issue(grant), issuer.issue(grant)]);
    expect(keys.privateReads).toBe(1);
  });
});

describe('the token verifier', () => {
  it('verifies tokens of every published key, so tokens signed before a rotation keep working', async () => {
    const keys = store();
    const time = clock();
    keys.publish(first);
    const issuer = new TokenIssuer(keys, { ...settings, signingKeyRefreshSeconds: 0 }, time.now);
    const verifier = new TokenVerifier(keys, settings, time.now);
    const before = (await issuer.issue(grant)).token;
    await verifier.verify(before);
    keys.publish(second);
    time.advance(REFRESH_SECONDS);
    const after = (await issuer.issue(grant)).token;
    expect(kidOf(after)).toBe(second.privateKey.kid);
    expect((await verifier.verify(after)).sub).toBe('client-a');
    expect((await verifier.verify(before)).sub).toBe('client-a');
    expect((await verifier.jwks()).keys.map((k) => k.kid)).toEqual([
      second.publicKey.kid,
      first.publicKey.kid,
    ]);
  });

  it("refuses a retired key's tokens once its refresh period has passed, and not before", async () => {
    const keys = store();
    const time = clock();
    keys.publish(first);
    keys.publish(second);
    const old = await new TokenIssuer(
      { newestPrivateKey: async () => first.privateKey },
      settings,
      time.now,
    ).issue(grant);
    const verifier = new TokenVerifier(keys, settings, time.now);
    await verifier.verify(old.token);
    keys.retire(first);
    time.advance(REFRESH_SECONDS - 1);
    await verifier.verify(old.token);
    time.advance(1);
    const refusal = verifier.verify(old.token);
    await expect(refusal).rejects.toBeInstanceOf(UnauthorizedError);
    await expect(refusal).rejects.toThrow(/a key this tenant does not publish/);
  });

  it('reads the key set again for an unknown kid, at most once per guard period', async () => {
    const keys = store();
    const time = clock();
    keys.publish(first);
    const verifier = new TokenVerifier(keys, settings, time.now);
    const stranger = await new TokenIssuer(
      { newestPrivateKey: async () => second.privateKey },
      settings,
      time.now,
    ).issue(grant);
    await expect(verifier.verify(stranger.token)).rejects.toThrow(/does not publish/);
    expect(keys.publicReads).toBe(1);
    for (let i = 0; i < 20; i++) {
      await expect(verifier.verify(stranger.token)).rejects.toThrow(/does not publish/);
    }
    time.advance(UNKNOWN_KID_REFRESH_MS / 1000);
    await expect(verifier.verify(stranger.token)).rejects.toThrow(/does not publish/);
    expect(keys.publicReads).toBe(1);
    // A key published since: found at the first unknown kid after the guard period, before the refresh period.
    keys.publish(second);
    time.advance(1);
    expect((await verifier.verify(stranger.token)).sub).toBe('client-a');
    expect(keys.publicReads).toBe(2);
  });

  it('checks expiry against its clock, with the tolerance', async () => {
    const keys = store();
    const time = clock();
    keys.publish(first);
    const { token } = await new TokenIssuer(keys, settings, time.now).issue(grant);
    const verifier = new TokenVerifier(keys, { ...settings, signingKeyRefreshSeconds: 3600 }, time.now);
    time.advance(settings.accessTokenTtlSeconds + 4);
    await verifier.verify(token);
    time.advance(1);
    await expect(verifier.verify(token)).rejects.toThrow(/expired/);
  });

  it('checks a token it verified before by its whole text: a copy with another signature is refused', async () => {
    const keys = store();
    const time = clock();
    keys.publish(first);
    const { token } = await new TokenIssuer(keys, settings, time.now).issue(grant);
    const verifier = new TokenVerifier(keys, settings, time.now);
    expect((await verifier.verify(token)).sub).toBe('client-a');
    const [header, payload, signature = ''] = token.split('.');
    const forged = `${header}.${payload}.${signature.startsWith('A') ? 'B' : 'A'}${signature.slice(1)}`;
    await expect(verifier.verify(forged)).rejects.toThrow(/signature does not verify|malformed/);
    expect((await verifier.verify(token)).sub).toBe('client-a');
  });

  it('keeps the key set in hand when a periodic re-read fails', async () => {
    const keys = store();
    const time = clock();
    keys.publish(first);
    const { token } = await new TokenIssuer(keys, settings, time.now).issue(grant);
    const verifier = new TokenVerifier(keys, settings, time.now);
    await verifier.verify(token);
    keys.failing = true;
    time.advance(REFRESH_SECONDS);
    expect((await verifier.verify(token)).sub).toBe('client-a');
    expect(keys.publicReads).toBe(2);
  });
});
