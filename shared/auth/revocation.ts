// POST /api/sso/revoke (RFC 7009): a client revokes one of its refresh tokens, and with it every token
// of that sign-in. Whatever the token, the answer is the same 200, so nobody learns which tokens exist or
// whose they are; only an access token is refused, as access tokens are not revoked but short-lived.
import type { ClientRepository } from '../data/client-repository';
import type { RefreshTokenRepository } from '../data/refresh-token-repository';
import type { ApiRequest, ApiResponse } from '../exchange';
import { OAuthError } from '../http/errors';
import { OAuthRevocationRequest } from '../schemas/oauth-requests';
import { opaqueTokenHash } from './opaque-token';
import { authenticateClient, parseParams, readParams } from './token-request';

/** A JWT's three dot-separated base64url parts; an opaque refresh token has no dot. */
const looksLikeJwt = (token: string) => /^[\w-]+\.[\w-]+\.[\w-]*$/.test(token);

export async function revokeToken(
  request: ApiRequest,
  { clients, refreshTokens }: { clients: ClientRepository; refreshTokens: RefreshTokenRepository },
): Promise<ApiResponse> {
  const params = readParams(request);
  const client = await authenticateClient(request, params, clients);
  const { token } = parseParams(OAuthRevocationRequest, params);
  if (looksLikeJwt(token)) {
    throw new OAuthError(
      'unsupported_token_type',
      'Access tokens are not revoked: they expire within minutes. Revoke the refresh token instead.',
    );
  }
  const stored = await refreshTokens.get(opaqueTokenHash(token));
  if (stored?.client_id === client.client_id) {
    await refreshTokens.revokeFamily(stored.family_id, stored.expires_at);
  }
  return { headers: { pragma: 'no-cache' } };
}
