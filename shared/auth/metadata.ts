// The authorization server metadata the discovery document publishes (RFC 8414, RFC 9207).
import type { Config } from '../config';
import { scopes } from '../domain/groups';
import type { AuthorizationServerMetadata } from '../schemas/service';
import { CLIENT_AUTH_METHODS, grantTypes } from './oauth-terms';

export function authorizationServerMetadata(config: Pick<Config, 'issuer'>): AuthorizationServerMetadata {
  return {
    issuer: config.issuer,
    authorization_endpoint: `${config.issuer}/authorize`,
    token_endpoint: `${config.issuer}/token`,
    revocation_endpoint: `${config.issuer}/revoke`,
    jwks_uri: `${config.issuer}/jwks`,
    grant_types_supported: [...grantTypes],
    response_types_supported: ['code'],
    code_challenge_methods_supported: ['S256'],
    scopes_supported: [...scopes],
    token_endpoint_auth_methods_supported: [...CLIENT_AUTH_METHODS],
    revocation_endpoint_auth_methods_supported: [...CLIENT_AUTH_METHODS],
    authorization_response_iss_parameter_supported: true,
  };
}
