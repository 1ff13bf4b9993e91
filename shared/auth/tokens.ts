// Issues and verifies the service's access tokens: ES256 JWTs in the RFC 9068 profile, with a kid,
// the contract's claims and the tenant id. Keys are read and imported once per cold start and reused.
import { randomUUID } from 'node:crypto';
import {
  type CryptoKey,
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
import type { Person } from './person';
import { isPersonRole } from './roles';
import { SIGNING_ALGORITHM } from './signing-keys';

export const ACCESS_TOKEN_TYPE = 'at+jwt';

export interface TokenSettings {
  issuer: string;
  audience: string;
  tenantId: string;
  accessTokenTtlSeconds: number;
}

export interface AccessToken {
  sub: string;
  clientId: string;
  tenantId: string;
  scopes: string[];
  issuedAt: number;
  expiresAt: number;
  jti: string;
  /** Set when a person signed in (the code flow); absent for a client's own token. */
  person?: Person;
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
  private signingKey: Promise<{ kid: string; key: CryptoKey }> | undefined;

  constructor(
    private readonly keys: PrivateKeySource,
    private readonly settings: TokenSettings,
  ) {}

  /** A token for a client itself (subject: the client id) or for a person (subject: their user id). */
  async issue(grant: { subject: string; clientId: string; scopes: string[]; person?: Person }): Promise<{
    token: string;
    expiresIn: number;
  }> {
    const { kid, key } = await this.loadSigningKey();
    const now = Math.floor(Date.now() / 1000);
    const expiresIn = this.settings.accessTokenTtlSeconds;
    const token = await new SignJWT({
      scope: grant.scopes.join(' '),
      client_id: grant.clientId,
      tenant_id: this.settings.tenantId,
      ...(grant.person ? { entity_id: grant.person.entityId, roles: grant.person.roles } : {}),
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

  private loadSigningKey() {
    this.signingKey ??= this.keys.newestPrivateKey().then(async (stored) => {
      if (!stored) throw new Error('The tenant has no signing key; create one before issuing tokens.');
      return { kid: stored.kid, key: (await importJWK(stored.jwk, SIGNING_ALGORITHM)) as CryptoKey };
    });
    this.signingKey.catch(() => {
      this.signingKey = undefined;
    });
    return this.signingKey;
  }
}

/** How long a verifier waits before it re-reads the key set for a kid it does not know. */
const KEY_SET_REFRESH_MS = 30_000;
const MAX_TOKEN_LENGTH = 4096;

export class TokenVerifier {
  private keySet: Promise<{ getKey: JWTVerifyGetKey; jwks: JSONWebKeySet }> | undefined;
  private loadedAt = 0;

  constructor(
    private readonly keys: PublicKeySource,
    private readonly settings: TokenSettings,
  ) {}

  /** The published public keys, as served at the JWKS endpoint. */
  async jwks(): Promise<JSONWebKeySet> {
    return (await this.loadKeySet()).jwks;
  }

  async verify(token: string): Promise<AccessToken> {
    if (token.length > MAX_TOKEN_LENGTH) throw invalid('the token is too long');
    try {
      return await this.verifyWith((await this.loadKeySet()).getKey, token);
    } catch (error) {
      if (error instanceof errors.JWKSNoMatchingKey && Date.now() - this.loadedAt > KEY_SET_REFRESH_MS) {
        this.keySet = undefined;
        return this.verifyWith((await this.loadKeySet()).getKey, token).catch((retryError) => {
          throw describe(retryError);
        });
      }
      throw describe(error);
    }
  }

  private async verifyWith(getKey: JWTVerifyGetKey, token: string): Promise<AccessToken> {
    const { payload } = await jwtVerify(token, getKey, {
      issuer: this.settings.issuer,
      audience: this.settings.audience,
      algorithms: [SIGNING_ALGORITHM],
      typ: ACCESS_TOKEN_TYPE,
      requiredClaims: ['exp', 'iat', 'jti', 'sub', 'scope', 'client_id', 'tenant_id'],
      clockTolerance: 5,
    });
    const { sub, jti, iat, exp, scope, client_id, tenant_id, entity_id, roles } = payload;
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
      (typeof entity_id !== 'string' || !Array.isArray(roles) || !roles.every((role) => isPersonRole(role)))
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
        ? { person: { userId: sub, entityId: entity_id as string, roles: roles as Person['roles'] } }
        : {}),
    };
  }

  private loadKeySet() {
    if (!this.keySet) {
      this.loadedAt = Date.now();
      this.keySet = this.keys.publicKeys().then((stored) => {
        const jwks = { keys: stored.map((k) => k.jwk) };
        return { jwks, getKey: createLocalJWKSet(jwks) };
      });
      this.keySet.catch(() => {
        this.keySet = undefined;
      });
    }
    return this.keySet;
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
