// The OAuth terms the service speaks: the grant types the token endpoint serves, which clients are
// registered with, and how clients authenticate; discovery lists both.

export const grantTypes = ['client_credentials', 'authorization_code', 'refresh_token'] as const;
export type GrantType = (typeof grantTypes)[number];

/** How clients authenticate: confidential ones with their secret, public ones with their client_id alone. */
export const CLIENT_AUTH_METHODS = ['client_secret_basic', 'client_secret_post', 'none'] as const;
