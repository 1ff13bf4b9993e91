// The authorization server metadata the discovery document publishes.
import type { Config } from '../config';
import { scopes } from '../domain/groups';
import { GRANT_TYPES } from './token-endpoint';
import { CLIENT_AUTH_METHODS } from './token-request';

export function authorizationServerMetadata(config: Pick<Config, 'issuer'>) {
  return {
    issuer: config.issuer,
    token_endpoint: `${config.issuer}/token`,
    jwks_uri: `${config.issuer}/jwks`,
    grant_types_supported: [...GRANT_TYPES],
    response_types_supported: [],
    scopes_supported: [...scopes],
    token_endpoint_auth_methods_supported: [...CLIENT_AUTH_METHODS],
  };
}
