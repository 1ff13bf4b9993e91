// What every grant of the token endpoint shares: its inputs, its answer (RFC 6749 section 5.1), and the
// refresh tokens that the code and refresh grants hand out for a person.
import type { Config } from '../../config';
import type { AuthorizationCodeRepository } from '../../data/authorization-code-repository';
import type { OAuthClient } from '../../data/client-repository';
import type { RecordRepository } from '../../data/record-repository';
import type {
  RefreshFamily,
  RefreshToken,
  RefreshTokenRepository,
} from '../../data/refresh-token-repository';
import type { UserRepository } from '../../data/user-repository';
import { OAuthError } from '../../http/errors';
import type { OAuthTokenResponse } from '../../schemas/service';
import type { IdentityScope } from '../identity-claims';
import { newOpaqueToken, opaqueTokenHash } from '../opaque-token';
import type { Person } from '../person';
import type { Params } from '../token-request';
import type { IdTokenGrant, TokenIssuer } from '../tokens';

/** What the grants use: the codes they redeem, the refresh tokens they keep, the people they sign in, the issuer. */
export interface TokenServices {
  config: Config;
  codes: AuthorizationCodeRepository;
  refreshTokens: RefreshTokenRepository;
  users: UserRepository;
  records: RecordRepository;
  tokenIssuer: TokenIssuer;
}

export interface GrantRequest {
  /** The authenticated client, allowed to use the grant. */
  client: OAuthClient;
  params: Params;
  services: TokenServices;
  now: Date;
}

export type Grant = (request: GrantRequest) => Promise<OAuthTokenResponse>;

export const invalidGrant = (description: string) => new OAuthError('invalid_grant', description);

export const hasExpired = (expiresAt: string, now: Date) => Date.parse(expiresAt) <= now.getTime();

/** What an ID token of a person's sign-in says, but for the access token it comes with. */
export type IdTokenOf = Omit<IdTokenGrant, 'clientId' | 'accessToken'>;

/**
 * An access token for the client itself, or for a person signed in to it, as the token endpoint answers;
 * with an ID token when the sign-in was granted openid (its scopes are in the access token too, so that
 * userinfo knows what it may release).
 */
export async function tokenResponse(
  services: Pick<TokenServices, 'tokenIssuer'>,
  grant: {
    client: OAuthClient;
    scopes: string[];
    person?: Person;
    refreshToken?: string;
    identityScopes?: readonly IdentityScope[];
    idToken?: IdTokenOf;
  },
): Promise<OAuthTokenResponse> {
  const scopes = [...(grant.identityScopes ?? []), ...grant.scopes];
  const { token, expiresIn } = await services.tokenIssuer.issue({
    subject: grant.person?.userId ?? grant.client.client_id,
    clientId: grant.client.client_id,
    scopes,
    ...(grant.person ? { person: grant.person } : {}),
  });
  const idToken =
    grant.idToken === undefined
      ? undefined
      : await services.tokenIssuer.issueIdToken({
          ...grant.idToken,
          clientId: grant.client.client_id,
          accessToken: token,
        });
  return {
    access_token: token,
    token_type: 'Bearer',
    expires_in: expiresIn,
    scope: scopes.join(' '),
    ...(grant.refreshToken ? { refresh_token: grant.refreshToken } : {}),
    ...(idToken ? { id_token: idToken } : {}),
  };
}

/** A new refresh token of a family: opaque, kept by its hash, expiring with the family. */
export function newRefreshToken(
  family: Pick<RefreshFamily, 'family_id' | 'client_id' | 'user_id' | 'expires_at'>,
  now: Date,
): { token: string; stored: RefreshToken } {
  const token = newOpaqueToken();
  return {
    token,
    stored: {
      token_hash: opaqueTokenHash(token),
      family_id: family.family_id,
      client_id: family.client_id,
      user_id: family.user_id,
      issued_at: now.toISOString(),
      expires_at: family.expires_at,
    },
  };
}
