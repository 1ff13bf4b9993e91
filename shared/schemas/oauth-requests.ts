// What the OAuth endpoints take: the token endpoint's grants (RFC 6749 sections 4.1.3, 4.4.2 and 6), the
// revocation request (RFC 7009) and the sign-in form. Written with zod/mini, which builds only the checks
// each schema uses: the token endpoint parses these on every request, and loads them at every cold start.
import * as z from 'zod/mini';

const described = <T extends z.ZodMiniType>(schema: T, description: string) =>
  schema.check(z.meta({ description }));

/** Client authentication in the body (RFC 6749 section 2.3.1), which every grant and revocation takes. */
const clientInBody = {
  client_id: z.optional(
    described(
      z.string(),
      'The client id: with client_secret when the client does not authenticate by HTTP Basic, alone for ' +
        'a public client.',
    ),
  ),
  client_secret: z.optional(z.string()),
};

/** RFC 7636 section 4.1: 43 to 128 unreserved characters. */
export const CODE_VERIFIER_PATTERN = /^[A-Za-z0-9\-._~]{43,128}$/;

export const OAuthClientCredentialsRequest = z.object({
  grant_type: z.literal('client_credentials'),
  scope: z.optional(
    described(z.string(), "Space-separated scopes, a subset of the client's; none asks for all of them."),
  ),
  ...clientInBody,
});
export type OAuthClientCredentialsRequest = z.infer<typeof OAuthClientCredentialsRequest>;

export const OAuthAuthorizationCodeRequest = z.object({
  grant_type: z.literal('authorization_code'),
  code: described(
    z.string().check(z.minLength(1), z.maxLength(512)),
    'The code the authorization response carried.',
  ),
  code_verifier: z.optional(
    described(
      z.string().check(z.regex(CODE_VERIFIER_PATTERN)),
      'The PKCE verifier (RFC 7636): its S256 hash must be the code_challenge of the request. Required ' +
        'when the request sent a code_challenge, refused when it did not.',
    ),
  ),
  redirect_uri: z.optional(
    described(
      z.string().check(z.minLength(1), z.maxLength(2048)),
      'Required, and identical, when the authorization request named a redirect_uri.',
    ),
  ),
  ...clientInBody,
});
export type OAuthAuthorizationCodeRequest = z.infer<typeof OAuthAuthorizationCodeRequest>;

export const OAuthRefreshTokenRequest = z.object({
  grant_type: z.literal('refresh_token'),
  refresh_token: z.string().check(z.minLength(1), z.maxLength(512)),
  scope: z.optional(
    described(z.string(), 'Space-separated scopes, a subset of those first granted; none asks for all.'),
  ),
  ...clientInBody,
});
export type OAuthRefreshTokenRequest = z.infer<typeof OAuthRefreshTokenRequest>;

export const OAuthTokenRequest = z.discriminatedUnion('grant_type', [
  OAuthClientCredentialsRequest,
  OAuthAuthorizationCodeRequest,
  OAuthRefreshTokenRequest,
]);
export type OAuthTokenRequest = z.infer<typeof OAuthTokenRequest>;

export const SignInForm = z.object({
  username: z.optional(described(z.string(), 'A username or e-mail address (the first step).')),
  password: z.optional(z.string()),
  otp: z.optional(
    described(
      z.string(),
      'The second step, for an account with a second factor: the TOTP code its app shows.',
    ),
  ),
  request: described(z.string(), 'The id of the authorization request the sign-in page shows.'),
  csrf: described(
    z.string(),
    'The token the sign-in page holds, the same as its CSRF cookie (__Host-sso_csrf over https, sso_csrf over http).',
  ),
});
export type SignInForm = z.infer<typeof SignInForm>;

export const LogoutForm = z.object({
  id_token_hint: z.optional(
    described(z.string(), 'An ID token this service issued to the app, naming the person.'),
  ),
  client_id: z.optional(z.string()),
  post_logout_redirect_uri: z.optional(
    described(z.string(), "One of the app's registered post_logout_redirect_uris, to send the person to."),
  ),
  state: z.optional(described(z.string(), 'Returned unchanged with the person to post_logout_redirect_uri.')),
  ui_locales: z.optional(described(z.string(), 'The languages the page should speak, by preference.')),
  logout_hint: z.optional(z.string()),
  confirm: z.optional(described(z.string(), "yes: the person's own answer on the sign-out page.")),
});

export const OAuthRevocationRequest = z.object({
  token: described(z.string().check(z.minLength(1), z.maxLength(8192)), 'The refresh token to revoke.'),
  token_type_hint: z.optional(
    described(z.string(), 'Optional (RFC 7009 section 2.1); the service tells token types apart itself.'),
  ),
  ...clientInBody,
});
export type OAuthRevocationRequest = z.infer<typeof OAuthRevocationRequest>;
