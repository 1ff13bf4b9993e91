// The OAuth terms the service speaks: the grant types the token endpoint serves, which clients are
// registered with, how clients authenticate (discovery lists both), the errors an authorization request is
// sent back with, and what the logout endpoint takes.

export const grantTypes = ['client_credentials', 'authorization_code', 'refresh_token'] as const;
export type GrantType = (typeof grantTypes)[number];

/** How clients authenticate: confidential ones with their secret, public ones with their client_id alone. */
export const CLIENT_AUTH_METHODS = ['client_secret_basic', 'client_secret_post', 'none'] as const;

/** The errors an authorization request is sent back with (RFC 6749 section 4.1.2.1). */
export type AuthorizationError =
  | 'invalid_request'
  | 'unsupported_response_type'
  | 'invalid_scope'
  | 'access_denied'
  | 'login_required';

/** The parameters of the end-session endpoint (OpenID Connect RP-Initiated Logout 1.0 section 2). */
export const LOGOUT_PARAMS = [
  'id_token_hint',
  'client_id',
  'post_logout_redirect_uri',
  'state',
  'ui_locales',
  'logout_hint',
] as const;
