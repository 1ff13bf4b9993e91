// What every grant of the token endpoint shares: its inputs and its answer (RFC 6749 section 5.1).
import type { OAuthClient } from '../../data/client-repository';
import type { OAuthTokenResponse } from '../../schemas/service';
import type { Services } from '../../services';
import type { Params } from '../token-request';

export interface GrantRequest {
  /** The authenticated client. */
  client: OAuthClient;
  params: Params;
  services: Services;
}

export type Grant = (request: GrantRequest) => Promise<OAuthTokenResponse>;

/** An access token for the client itself, as the token endpoint answers. */
export async function tokenResponse(
  services: Services,
  grant: { client: OAuthClient; scopes: string[] },
): Promise<OAuthTokenResponse> {
  const { token, expiresIn } = await services.tokenIssuer.issue({
    subject: grant.client.client_id,
    clientId: grant.client.client_id,
    scopes: grant.scopes,
  });
  return { access_token: token, token_type: 'Bearer', expires_in: expiresIn, scope: grant.scopes.join(' ') };
}
