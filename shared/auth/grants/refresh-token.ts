// The refresh_token grant (RFC 6749 section 6) with rotation (RFC 9700 section 4.14.2): each refresh
// answers a new refresh token and uses up the one presented; presenting a used one again revokes the
// whole family, the newest token included. The account is read again and its roles recomputed, so a
// disabled account, a changed password or a lost role takes effect at the next refresh. A sign-in
// granted openid gets a new ID token with each refresh (OpenID Connect Core 1.0 section 12.2).
import type { RefreshToken } from '../../data/refresh-token-repository';
import { OAuthRefreshTokenRequest } from '../../schemas/oauth-requests';
import { identityClaims } from '../identity-claims';
import { opaqueTokenHash } from '../opaque-token';
import { rolesOf } from '../person';
import { scopesOfRoles } from '../roles';
import { parseParams, requestedScopes } from '../token-request';
import {
  type Grant,
  hasExpired,
  invalidGrant,
  newRefreshToken,
  type TokenServices,
  tokenResponse,
} from './grant';

async function refuseReuse(services: TokenServices, token: RefreshToken, now: Date): Promise<never> {
  await services.refreshTokens.revokeFamily(token.family_id, token.expires_at, now);
  throw invalidGrant('The refresh token was used already; every token of its sign-in is revoked.');
}

export const refreshTokenGrant: Grant = async ({ client, params, services, now }) => {
  const request = parseParams(OAuthRefreshTokenRequest, params);
  const presented = await services.refreshTokens.get(opaqueTokenHash(request.refresh_token));
  if (!presented || presented.client_id !== client.client_id) {
    throw invalidGrant('The refresh token is not valid.');
  }
  if (presented.used_at !== undefined) return refuseReuse(services, presented, now);
  if (hasExpired(presented.expires_at, now)) throw invalidGrant('The refresh token has expired.');
  const family = await services.refreshTokens.family(presented.family_id);
  if (family?.status !== 'active') throw invalidGrant('The refresh token has been revoked.');

  const user = await services.users.get(family.user_id);
  if (user?.status !== 'active') throw invalidGrant('The account may not sign in.');
  if (user.signed_out_at !== undefined && family.created_at < user.signed_out_at) {
    await services.refreshTokens.revokeFamily(family.family_id, family.expires_at, now);
    throw invalidGrant('The password of the account changed after this sign-in; sign in again.');
  }
  const entity = await services.records.get('entities', user.entity_id);
  const roles = rolesOf(user, entity?.record);
  const current = scopesOfRoles(roles).filter((s) => family.scopes.includes(s) && client.scopes.includes(s));
  // RFC 6749 section 6: no scope named means all the sign-in granted; a scope named must be one it
  // granted, and the access token gets only those named (openid alone: no API scope). A narrower scope
  // applies to this access token only: the family keeps what the sign-in granted.
  const named = request.scope?.split(' ').filter(Boolean);
  const granted = family.identity_scopes ?? [];
  const identityScopes = named?.length ? granted.filter((s) => named.includes(s)) : granted;
  const apiNamed = named?.length ? named.filter((s) => !granted.some((g) => g === s)) : undefined;
  const asked = apiNamed?.length === 0 ? [] : requestedScopes(apiNamed?.join(' '), family.scopes);
  const scopes = asked.filter((s) => current.includes(s));

  const next = newRefreshToken(family, now);
  const rotation = await services.refreshTokens.rotate(presented, next.stored, now);
  if (rotation === 'reused') return refuseReuse(services, presented, now);
  if (rotation === 'revoked') throw invalidGrant('The refresh token has been revoked.');
  return tokenResponse(services, {
    client,
    scopes,
    person: { userId: user.user_id, entityId: user.entity_id, roles, signIn: family.family_id },
    refreshToken: next.token,
    identityScopes,
    // OpenID Connect Core 1.0 section 12.2: the same person and sign-in time, no nonce.
    ...(identityScopes.includes('openid')
      ? {
          idToken: {
            claims: identityClaims(identityScopes, { user, entity: entity?.record, roles }),
            authTime: family.auth_time ?? Math.floor(Date.parse(family.created_at) / 1000),
            amr: family.amr ?? ['pwd'],
          },
        }
      : {}),
  });
};
