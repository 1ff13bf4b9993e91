// The authorization server metadata the discovery documents publish (RFC 8414, RFC 9207, OpenID Connect
// Discovery 1.0 section 3, RP-Initiated Logout 1.0 section 3.1).
import type { Config } from '../config';
import { LOCALES } from '../config';
import { scopes } from '../domain/groups';
import type { AuthorizationServerMetadata } from '../schemas/service';
import { claimsSupported, identityScopes } from './identity-claims';
import { CLIENT_AUTH_METHODS, grantTypes } from './oauth-terms';
import { SIGNING_ALGORITHM } from './signing-keys';

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
    scopes_supported: [...identityScopes, ...scopes],
    token_endpoint_auth_methods_supported: [...CLIENT_AUTH_METHODS],
    revocation_endpoint_auth_methods_supported: [...CLIENT_AUTH_METHODS],
    authorization_response_iss_parameter_supported: true,
    userinfo_endpoint: `${config.issuer}/userinfo`,
    end_session_endpoint: `${config.issuer}/logout`,
    // `sub` is the person's entity id for every client (identity-claims.ts).
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: [SIGNING_ALGORITHM],
    claims_supported: [...claimsSupported],
    // consent needs no page (the school registers every client); select_account shows the sign-in page.
    prompt_values_supported: ['none', 'login', 'consent', 'select_account'],
    response_modes_supported: ['query'],
    ui_locales_supported: [...LOCALES],
    claims_parameter_supported: false,
    request_parameter_supported: false,
    request_uri_parameter_supported: false,
  };
}
