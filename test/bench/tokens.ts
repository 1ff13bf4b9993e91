// Section 5, tokens: the token endpoint over HTTP (client_credentials, whose cost is the scrypt check
// of the client secret, by design), and apart from it the three parts of a token's life with keys
// imported once: checking a secret, signing a token, verifying one as every protected request does.
// Verifying with the key imported per request is measured too, as the cost that importing once avoids.
import { importJWK, jwtVerify } from 'jose';
import { hashSecret, verifySecret } from '../../shared/auth/secret-hash';
import { generateSigningKey, SIGNING_ALGORITHM } from '../../shared/auth/signing-keys';
import { ACCESS_TOKEN_TYPE, TokenIssuer, type TokenSettings, TokenVerifier } from '../../shared/auth/tokens';
import type { HttpClient } from './http-client';
import { type Latency, latency, round, timed } from './stats';
import { issueToken } from './workload';

export interface Tokens {
  /** POST /api/sso/token through the whole stack, ms. */
  endpoint: Latency;
  /** verifySecret against a stored scrypt hash, ms. */
  secretCheck: Latency;
  /** TokenIssuer.issue with the private key imported once, ms. */
  sign: Latency;
  /** TokenVerifier.verify of a token it has not seen, with the public keys imported once, ms. */
  verifyFirst: Latency;
  /** TokenVerifier.verify of a token it verified before with the key set in hand (every later request), ms. */
  verify: Latency;
  /** jose's jwtVerify after importing the public JWK for this one request, ms. */
  verifyImportingKey: Latency;
}

const settings: TokenSettings = {
  issuer: 'http://127.0.0.1/api/sso',
  audience: 'http://127.0.0.1/api',
  tenantId: 'bench',
  accessTokenTtlSeconds: 900,
  signingKeyRefreshSeconds: 300,
};

async function sample(times: number, action: () => Promise<unknown>): Promise<Latency> {
  const taken: number[] = [];
  for (let i = 0; i < times; i++) taken.push(await timed(action));
  const { n, p50, p95 } = latency(taken);
  return { n, p50: round(p50, 3), p95: round(p95, 3) };
}

export async function measureTokens(
  api: HttpClient,
  counts: { endpoint: number; secret: number; crypto: number },
): Promise<Tokens> {
  await issueToken(api);
  const endpoint = await sample(counts.endpoint, () => issueToken(api));

  const stored = await hashSecret('bench-secret');
  const secretCheck = await sample(counts.secret, () => verifySecret('bench-secret', stored));

  const { privateKey, publicKey } = await generateSigningKey();
  const issuer = new TokenIssuer({ newestPrivateKey: async () => privateKey }, settings);
  const verifier = new TokenVerifier({ publicKeys: async () => [publicKey] }, settings);
  const grant = { subject: 'bench-client', clientId: 'bench-client', scopes: ['students:read'] };
  const { token } = await issuer.issue(grant);
  await verifier.verify(token);
  const sign = await sample(counts.crypto, () => issuer.issue(grant));
  const unseen = await Promise.all(Array.from({ length: counts.crypto }, () => issuer.issue(grant)));
  let next = 0;
  const verifyFirst = await sample(counts.crypto, () => verifier.verify(unseen[next++]?.token ?? token));
  const verify = await sample(counts.crypto, () => verifier.verify(token));
  const verifyImportingKey = await sample(counts.crypto, async () =>
    jwtVerify(token, await importJWK(publicKey.jwk, SIGNING_ALGORITHM), {
      issuer: settings.issuer,
      audience: settings.audience,
      typ: ACCESS_TOKEN_TYPE,
    }),
  );
  return { endpoint, secretCheck, sign, verifyFirst, verify, verifyImportingKey };
}
