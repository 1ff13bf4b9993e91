// The authorization_code grant (RFC 6749 section 4.1.3, RFC 7636 section 4.6): exchanges a code and its
// PKCE verifier for a person's access token and the first refresh token of a new family. The code is
// redeemed before anything else is checked, so it can never be exchanged twice, whatever the outcome;
// a second exchange is refused and revokes the family the first one started (RFC 6749 section 4.1.2),
// which the first exchange's access token names (`sid`) for the routes that check sign-ins. A sign-in
// granted openid gets an ID token too (OpenID Connect Core 1.0 section 3.1.3.3).
import { createHash, timingSafeEqual } from 'node:crypto';
import type { AuthorizationCode } from '../../data/authorization-code-repository';
import { grantTypesOf, isPublicClient, type OAuthClient } from '../../data/client-repository';
import type { RefreshFamily } from '../../data/refresh-token-repository';
import { isScope } from '../../domain/groups';
import { OAuthError } from '../../http/errors';
import { OAuthAuthorizationCodeRequest } from '../../schemas/oauth-requests';
import { identityClaims } from '../identity-claims';
import { opaqueTokenHash } from '../opaque-token';
import { parseParams } from '../token-request';
import {
  type Grant,
  hasExpired,
  type IdTokenOf,
  invalidGrant,
  newRefreshToken,
  type TokenServices,
  tokenResponse,
} from './grant';

/** BASE64URL(SHA256(ASCII(code_verifier))) against the stored challenge, compared in constant time. */
function verifierMatches(verifier: string, challenge: string): boolean {
  const computed = Buffer.from(createHash('sha256').update(verifier, 'ascii').digest('base64url'));
  const expected = Buffer.from(challenge);
  return computed.length === expected.length && timingSafeEqual(computed, expected);
}

/** Why a redeemed code does not grant this request, if it does not. */
function refusal(
  code: AuthorizationCode,
  request: OAuthAuthorizationCodeRequest,
  client: OAuthClient,
  now: Date,
) {
  if (code.client_id !== client.client_id) return 'The authorization code was issued to another client.';
  if (hasExpired(code.expires_at, now)) return 'The authorization code has expired.';
  if (code.redirect_uri_given && request.redirect_uri === undefined) {
    return 'redirect_uri is required: the authorization request named one.';
  }
  if (request.redirect_uri !== undefined && request.redirect_uri !== code.redirect_uri) {
    return 'redirect_uri is not the one of the authorization request.';
  }
  if (code.code_challenge === undefined) {
    // RFC 9700 section 2.1.1: a verifier for a code issued without a challenge is refused, so a code
    // injected into a PKCE client's flow cannot pass.
    if (request.code_verifier !== undefined) {
      return 'code_verifier was sent, but the authorization request sent no code_challenge.';
    }
  } else if (request.code_verifier === undefined) {
    return 'code_verifier is required: the authorization request sent a code_challenge.';
  } else if (!verifierMatches(request.code_verifier, code.code_challenge)) {
    return 'The code_verifier does not match the code_challenge of the authorization request.';
  }
  return undefined;
}

/** The ID token's claims: the person read now, as they are when the client receives the token. */
async function idTokenOf(services: TokenServices, code: AuthorizationCode, now: Date): Promise<IdTokenOf> {
  const [user, entity] = await Promise.all([
    services.users.get(code.user_id),
    services.records.get('entities', code.entity_id),
  ]);
  if (user?.status !== 'active') throw invalidGrant('The account may not sign in.');
  return {
    claims: identityClaims(code.identity_scopes ?? [], { user, entity: entity?.record, roles: code.roles }),
    authTime: code.auth_time ?? Math.floor(now.getTime() / 1000),
    amr: code.amr ?? ['pwd'],
    ...(code.nonce === undefined ? {} : { nonce: code.nonce }),
  };
}

const familyExpiry = (services: TokenServices, now: Date) =>
  new Date(now.getTime() + services.config.refreshTokenTtlSeconds * 1000).toISOString();

/** Says exactly what the reuse revoked: writes and /me check the sign-in at once, other routes within a minute. */
const reuseRefused = () =>
  invalidGrant(
    'The authorization code was used already, so its sign-in is revoked: its refresh tokens stop working, ' +
      'and its access token is refused at once for writes and at /api/sso/me, and within a minute everywhere else.',
  );

export const authorizationCodeGrant: Grant = async ({ client, params, services, now }) => {
  const request = parseParams(OAuthAuthorizationCodeRequest, params);
  // Every code a public client holds was issued with a challenge: refused before the code is used up.
  if (request.code_verifier === undefined && isPublicClient(client)) {
    throw new OAuthError('invalid_request', 'code_verifier is required (PKCE, RFC 7636).');
  }
  const redemption = await services.codes.redeem(opaqueTokenHash(request.code), now);
  if (redemption.outcome === 'unknown') throw invalidGrant('The authorization code is not valid.');
  const { code } = redemption;
  if (redemption.outcome === 'reused') {
    await services.refreshTokens.revokeFamily(code.family_id, familyExpiry(services, now), now);
    throw reuseRefused();
  }
  const refused = refusal(code, request, client, now);
  if (refused) throw invalidGrant(refused);

  const scopes = code.scopes.filter(isScope);
  const identityScopes = code.identity_scopes ?? [];
  const openId = identityScopes.includes('openid');
  let refreshToken: string | undefined;
  if (grantTypesOf(client).includes('refresh_token')) {
    const family: RefreshFamily = {
      family_id: code.family_id,
      client_id: client.client_id,
      user_id: code.user_id,
      entity_id: code.entity_id,
      scopes,
      ...(openId
        ? { identity_scopes: identityScopes, auth_time: code.auth_time, amr: code.amr ?? ['pwd'] }
        : {}),
      status: 'active',
      created_at: now.toISOString(),
      expires_at: familyExpiry(services, now),
    };
    const first = newRefreshToken(family, now);
    // A reuse of the code that overtook this exchange has revoked the family already.
    if (!(await services.refreshTokens.start(family, first.stored))) throw reuseRefused();
    refreshToken = first.token;
  }
  return tokenResponse(services, {
    client,
    scopes,
    person: { userId: code.user_id, entityId: code.entity_id, roles: code.roles, signIn: code.family_id },
    ...(refreshToken ? { refreshToken } : {}),
    identityScopes,
    ...(openId ? { idToken: await idTokenOf(services, code, now) } : {}),
  });
};
