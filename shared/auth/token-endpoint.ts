// POST /api/sso/token (RFC 6749 sections 3.2, 5 and 6): authenticates the client, checks that it may use
// the grant it asks for, and hands the request to that grant. Public clients may use only the grants
// of a person's sign-in, never client_credentials.
import {
  type ClientRepository,
  grantTypesOf,
  isPublicClient,
  type OAuthClient,
} from '../data/client-repository';
import type { ApiRequest, ApiResponse } from '../exchange';
import { OAuthError } from '../http/errors';
import { quote } from '../http/quote';
import { authorizationCodeGrant } from './grants/authorization-code';
import { clientCredentialsGrant } from './grants/client-credentials';
import type { Grant, TokenServices } from './grants/grant';
import { refreshTokenGrant } from './grants/refresh-token';
import { type GrantType, grantTypes } from './oauth-terms';
import { authenticateClient, readParams } from './token-request';

const grants: Record<GrantType, Grant> = {
  client_credentials: clientCredentialsGrant,
  authorization_code: authorizationCodeGrant,
  refresh_token: refreshTokenGrant,
};

const isGrantType = (value: string): value is GrantType => (grantTypes as readonly string[]).includes(value);

const mayUse = (client: OAuthClient, grantType: GrantType) =>
  grantTypesOf(client).includes(grantType) && !(isPublicClient(client) && grantType === 'client_credentials');

export async function issueToken(
  request: ApiRequest,
  services: Omit<TokenServices, 'config'> & { clients: ClientRepository },
): Promise<ApiResponse> {
  const params = readParams(request);
  const grantType = params.get('grant_type');
  if (!grantType) throw new OAuthError('invalid_request', 'grant_type is required.');
  const client = await authenticateClient(request, params, services.clients);
  if (!isGrantType(grantType)) {
    throw new OAuthError('unsupported_grant_type', `The grant type ${quote(grantType)} is not supported.`);
  }
  if (!mayUse(client, grantType)) {
    throw new OAuthError('unauthorized_client', `This client may not use the grant type ${grantType}.`);
  }
  const body = await grants[grantType]({
    client,
    params,
    services: { ...services, config: request.config },
    now: new Date(),
  });
  return { headers: { pragma: 'no-cache' }, body };
}
