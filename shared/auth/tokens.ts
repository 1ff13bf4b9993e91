// Issues and verifies the service's access tokens: ES256 JWTs in the RFC 9068 profile, with a kid,
// the contract's claims and the tenant id. Keys are imported once per read and reused until the next read,
// every signingKeyRefreshSeconds, so a rotated key signs, and a retired key stops verifying, without a deploy.
import { createHash, randomUUID } from 'node:crypto';
import {
  type CryptoKey,
  compactVerify,
  createLocalJWKSet,
  errors,
  importJWK,
  type JSONWebKeySet,
  type JWTVerifyGetKey,
  jwtVerify,
  SignJWT,
} from 'jose';
import type { StoredKey } from '../data/signing-key-repository';
import { UnauthorizedError } from '../http/errors';
import type { AccessToken } from './access-token';
import type { Person } from './person';
import { type Clock, RefreshingValue } from './refreshing-value';
import { isPersonRole } from './roles';
import { SIGNING_ALGORITHM } from './signing-keys';

export const ACCESS_TOKEN_TYPE = 'at+jwt';

/**
 * An access token's hash as an ID token carries it (OpenID Connect Core 1.0 section 3.1.3.6): the left
 * half of the hash the signing algorithm uses (SHA-256 for ES256), base64url.
 */
export const accessTokenHash = (accessToken: string) =>
  createHash('sha256').update(accessToken, 'ascii').digest().subarray(0, 16).toString('base64url');

/** What an ID token says beyond the issuer and its times (OpenID Connect Core 1.0 section 2). */
export interface IdTokenGrant {
  /** The client: the ID token's audience and authorized party. */
  clientId: string;
  /** The person's claims, `sub` first among them (identity-claims.ts). */
  claims: { sub: string } & Record<string, unknown>;
  /** When the person last proved who they are, epoch seconds. */
  authTime: number;
  amr: readonly string[];
  nonce?: string;
  /** The access token issued with it, whose hash it carries. */
  accessToken?: string;
}

export interface TokenSettings {
  issuer: string;
  audience: string;
  tenantId: string;
  accessTokenTtlSeconds: number;
  /** How long the issuer keeps its private key, and a verifier its key set, before reading them again. */
  signingKeyRefreshSeconds: number;
}

/** Where the issuer finds its private key: the table locally, Secrets Manager in a deployed tenant. */
export interface PrivateKeySource {
  newestPrivateKey(): Promise<StoredKey | undefined>;
}

/** Where verifiers find the published public keys. */
export interface PublicKeySource {
  publicKeys(): Promise<StoredKey[]>;
}

export class TokenIssuer {
  private readonly signingKey: RefreshingValue<{ kid: string; key: CryptoKey }>;

  constructor(
    keys: PrivateKeySource,
    private readonly settings: TokenSettings,
    private readonly now: Clock = Date.now,
  ) {
    this.signingKey = new RefreshingValue(
      async () => {
        const stored = await keys.newestPrivateKey();
        if (!stored) throw new Error('The tenant has no signing key; create one before issuing tokens.');
        return { kid: stored.kid, key: (await importJWK(stored.jwk, SIGNING_ALGORITHM)) as CryptoKey };
      },
      settings.signingKeyRefreshSeconds * 1000,
      now,
    );
  }

  /** A token for a client itself (subject: the client id) or for a person (subject: their user id). */
  async issue(grant: { subject: string; clientId: string; scopes: string[]; person?: Person }): Promise<{
    token: string;
    expiresIn: number;
  }> {
    const { kid, key } = await this.signingKey.get();
    const now = Math.floor(this.now() / 1000);
    const expiresIn = this.settings.accessTokenTtlSeconds;
    const token = await new SignJWT({
      scope: grant.scopes.join(' '),
      client_id: grant.clientId,
      tenant_id: this.settings.tenantId,
      ...(grant.person ? { entity_id: grant.person.entityId, roles: grant.person.roles } : {}),
      ...(grant.person?.signIn ? { sid: grant.person.signIn } : {}),
    })
      .setProtectedHeader({ alg: SIGNING_ALGORITHM, kid, typ: ACCESS_TOKEN_TYPE })
      .setIssuer(this.settings.issuer)
      .setAudience(this.settings.audience)
      .setSubject(grant.subject)
      .setIssuedAt(now)
      .setExpirationTime(now + expiresIn)
      .setJti(randomUUID())
      .sign(key);
    return { token, expiresIn };
  }

  /** An OpenID Connect ID token for the client a person signed in to, living as long as an access token. */
  async issueIdToken(grant: IdTokenGrant): Promise<string> {
    const { kid, key } = await this.signingKey.get();
    const now = Math.floor(this.now() / 1000);
    const { sub, ...claims } = grant.claims;
    return new SignJWT({
      ...claims,
      azp: grant.clientId,
      auth_time: grant.authTime,
      amr: [...grant.amr],
      ...(grant.nonce === undefined ? {} : { nonce: grant.nonce }),
      ...(grant.accessToken === undefined ? {} : { at_hash: accessTokenHash(grant.accessToken) }),
    })
      .setProtectedHeader({ alg: SIGNING_ALGORITHM, kid, typ: 'JWT' })
      .setIssuer(this.settings.issuer)
      .setAudience(grant.clientId)
      .setSubject(sub)
      .setIssuedAt(now)
      .setExpirationTime(now + this.settings.accessTokenTtlSeconds)
      .sign(key);
  }
}

/**
 * The shortest time between two reads of the key set caused by a kid the verifier does not know, so a
 * flood of tokens naming made-up kids cannot turn into a flood of reads. A new key must be published this
 * long before anything signs with it (the admin CLI waits so), or a verifier may refuse its first tokens.
 */
export const UNKNOWN_KID_REFRESH_MS = 30_000;
/** The leeway on `exp`, `iat` and `nbf` for clocks that differ a little. */
export const CLOCK_TOLERANCE_SECONDS = 5;
const MAX_TOKEN_LENGTH = 4096;
/** How many verified tokens a verifier keeps, the oldest dropped first: a few hundred bytes each. */
const VERIFIED_TOKENS_KEPT = 1000;

interface KeySet {
  getKey: JWTVerifyGetKey;
  jwks: JSONWebKeySet;
  /**
   * Tokens this key set verified, by their text: a client sends the same token with every request until
   * it expires, and its signature and claims need checking only once. They go with the key set, so a key
   * retired or rotated away stops verifying when the set is read again, cached tokens included.
   */
  verified: Map<string, AccessToken>;
}

/** A reason to refuse a token whose signature and claims hold, if there is one. */
export interface TokenRefusal {
  refusal(token: AccessToken): Promise<string | undefined>;
}

export class TokenVerifier {
  private readonly keySet: RefreshingValue<KeySet>;

  constructor(
    keys: PublicKeySource,
    private readonly settings: TokenSettings,
    private readonly now: Clock = Date.now,
    /**
     * What else refuses a well-signed token on the routes: its sign-in revoked, its client disabled.
     * Tools that only check signatures go without.
     */
    private readonly refusals: readonly TokenRefusal[] = [],
  ) {
    this.keySet = new RefreshingValue(
      async () => {
        const jwks = { keys: (await keys.publicKeys()).map((k) => k.jwk) };
        return { jwks, getKey: createLocalJWKSet(jwks), verified: new Map() };
      },
      settings.signingKeyRefreshSeconds * 1000,
      now,
    );
  }

  /** The published public keys, as served at the JWKS endpoint. */
  async jwks(): Promise<JSONWebKeySet> {
    return (await this.keySet.get()).jwks;
  }

  /**
   * Whom an ID token this service issued names, as RP-Initiated Logout 1.0 section 2 takes one
   * (`id_token_hint`): its signature and issuer are checked, not its expiry, since a person often signs
   * out long after the ID token expired. Undefined when it is not one of ours.
   */
  async idTokenHint(token: string): Promise<{ sub: string; clientId: string } | undefined> {
    if (token.length > MAX_TOKEN_LENGTH) return undefined;
    try {
      const { payload, protectedHeader } = await compactVerify(token, (await this.keySet.get()).getKey, {
        algorithms: [SIGNING_ALGORITHM],
      });
      const claims = JSON.parse(new TextDecoder().decode(payload)) as Record<string, unknown>;
      const { iss, sub, aud } = claims;
      if (protectedHeader.typ !== 'JWT' || iss !== this.settings.issuer || typeof sub !== 'string')
        return undefined;
      const clientId = Array.isArray(aud) && aud.length === 1 ? aud[0] : aud;
      return typeof clientId === 'string' ? { sub, clientId } : undefined;
    } catch (error) {
      if (error instanceof errors.JOSEError || error instanceof SyntaxError) return undefined;
      throw error;
    }
  }

  async verify(token: string): Promise<AccessToken> {
    const verified = await this.verifySigned(token);
    const [refused] = (await Promise.all(this.refusals.map((check) => check.refusal(verified)))).filter(
      (reason) => reason !== undefined,
    );
    if (refused) throw invalid(refused);
    return verified;
  }

  private async verifySigned(token: string): Promise<AccessToken> {
    if (token.length > MAX_TOKEN_LENGTH) throw invalid('the token is too long');
    const keySet = await this.keySet.get();
    const known = keySet.verified.get(token);
    if (known) {
      // Checked as jose checks `exp`, with the same tolerance.
      if (known.expiresAt > Math.floor(this.now() / 1000) - CLOCK_TOLERANCE_SECONDS) return known;
      keySet.verified.delete(token);
    }
    try {
      return await this.verifyWith(keySet, token);
    } catch (error) {
      // A key published since the last read: read the set again, at most once per guard period.
      if (error instanceof errors.JWKSNoMatchingKey && this.keySet.age() > UNKNOWN_KID_REFRESH_MS) {
        return this.verifyWith(await this.keySet.refresh(), token).catch((retryError) => {
          throw describe(retryError);
        });
      }
      throw describe(error);
    }
  }

  private async verifyWith(keySet: KeySet, token: string): Promise<AccessToken> {
    const verified = await this.verifyClaims(keySet.getKey, token);
    if (keySet.verified.size >= VERIFIED_TOKENS_KEPT) {
      const oldest = keySet.verified.keys().next();
      if (!oldest.done) keySet.verified.delete(oldest.value);
    }
    keySet.verified.set(token, verified);
    return verified;
  }

  private async verifyClaims(getKey: JWTVerifyGetKey, token: string): Promise<AccessToken> {
    const { payload } = await jwtVerify(token, getKey, {
      issuer: this.settings.issuer,
      audience: this.settings.audience,
      algorithms: [SIGNING_ALGORITHM],
      typ: ACCESS_TOKEN_TYPE,
      requiredClaims: ['exp', 'iat', 'jti', 'sub', 'scope', 'client_id', 'tenant_id'],
      clockTolerance: CLOCK_TOLERANCE_SECONDS,
      currentDate: new Date(this.now()),
    });
    const { sub, jti, iat, exp, scope, client_id, tenant_id, entity_id, roles, sid } = payload;
    if (tenant_id !== this.settings.tenantId) throw invalid('the token was issued for another tenant');
    if (
      typeof scope !== 'string' ||
      typeof client_id !== 'string' ||
      typeof sub !== 'string' ||
      typeof jti !== 'string' ||
      typeof iat !== 'number' ||
      typeof exp !== 'number'
    ) {
      throw invalid('the token claims are malformed');
    }
    const personal = entity_id !== undefined || roles !== undefined;
    if (
      personal &&
      (typeof entity_id !== 'string' ||
        !Array.isArray(roles) ||
        !roles.every((role) => isPersonRole(role)) ||
        (sid !== undefined && typeof sid !== 'string'))
    ) {
      throw invalid('the token claims are malformed');
    }
    return {
      sub,
      clientId: client_id,
      tenantId: tenant_id,
      scopes: scope.split(' ').filter(Boolean),
      issuedAt: iat,
      expiresAt: exp,
      jti,
      ...(personal
        ? {
            person: {
              userId: sub,
              entityId: entity_id as string,
              roles: roles as Person['roles'],
              ...(typeof sid === 'string' ? { signIn: sid } : {}),
            },
          }
        : {}),
    };
  }
}

const invalid = (reason: string) => new UnauthorizedError(`The access token is not valid: ${reason}.`, true);

function describe(error: unknown): Error {
  if (error instanceof UnauthorizedError) return error;
  if (error instanceof errors.JWTExpired) return invalid('it has expired');
  if (error instanceof errors.JWTClaimValidationFailed)
    return invalid(`its ${error.claim} claim is not accepted`);
  if (error instanceof errors.JWSSignatureVerificationFailed) return invalid('its signature does not verify');
  if (error instanceof errors.JWKSNoMatchingKey)
    return invalid('it is signed with a key this tenant does not publish');
  if (error instanceof errors.JOSEAlgNotAllowed) return invalid('its algorithm is not accepted');
  if (error instanceof errors.JOSEError) return invalid('it is malformed');
  return error instanceof Error ? error : new Error(String(error));
}
