// The client_credentials grant (RFC 6749 section 4.4): a token for the client itself, with the scopes
// it asks for among its own.
import { OAuthClientCredentialsRequest } from '../../schemas/oauth-requests';
import { parseParams, requestedScopes } from '../token-request';
import { type Grant, tokenResponse } from './grant';

export const clientCredentialsGrant: Grant = async ({ client, params, services }) => {
  const { scope } = parseParams(OAuthClientCredentialsRequest, params);
  return tokenResponse(services, { client, scopes: requestedScopes(scope, client.scopes) });
};
