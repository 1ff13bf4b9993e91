// The authorization endpoint (RFC 6749 section 4.1.1, PKCE per RFC 7636 section 4.3, RFC 9700). The
// client and its redirect URI are checked first, and a bad one gets a page, never a redirect (RFC 6749
// section 4.1.2.1): an unregistered URI is never sent anywhere. Any other fault goes back to the checked
// redirect URI as an error with state and iss. A good request is stored and the sign-in page shown.

import { randomUUID } from 'node:crypto';
import type { GrantType } from '../auth/oauth-terms';
import type {
  AuthorizationRequest,
  AuthorizationRequestRepository,
} from '../data/authorization-request-repository';
import { type ClientRepository, grantTypesOf, type OAuthClient } from '../data/client-repository';
import { isScope, type Scope } from '../domain/groups';
import type { ApiRequest, ApiResponse } from '../http/exchange';
import { PageError, redirectTo } from '../http/html-page';
import type { QueryParams } from '../http/request';
import { csrfCookie, csrfCookieOf } from './csrf';
import { newOpaqueToken, opaqueTokenHash } from './opaque-token';
import { signInPage } from './sign-in-page';

/** How long a sign-in page stays usable, and its CSRF cookie with it. */
export const AUTHORIZATION_REQUEST_TTL_SECONDS = 600;

const CODE_GRANT: GrantType = 'authorization_code';
/** RFC 7636 section 4.2: 43 to 128 unreserved characters. */
const CODE_CHALLENGE = /^[A-Za-z0-9._~-]{43,128}$/;
/** Longer than any id the admin CLI registers, and short enough to be a table key. */
const MAX_CLIENT_ID_LENGTH = 256;

/** The errors an authorization request is sent back with (RFC 6749 section 4.1.2.1). */
export type AuthorizationError =
  | 'invalid_request'
  | 'unsupported_response_type'
  | 'invalid_scope'
  | 'access_denied';

/**
 * The redirect URI with the response's parameters and the issuer (RFC 9207) added to its query. The
 * registered URI is kept byte for byte, its own query included (RFC 6749 section 3.1.2).
 */
export function backToClient(
  redirectUri: string,
  params: Record<string, string | undefined>,
  issuer: string,
): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries({ ...params, iss: issuer })) {
    if (value !== undefined) query.append(name, value);
  }
  return `${redirectUri}${redirectUri.includes('?') ? '&' : '?'}${query}`;
}

const cannotStart = (message: string) =>
  new PageError(
    400,
    'This sign-in link does not work',
    `${message} You have not been sent anywhere. Go back to the app, or tell whoever looks after it.`,
  );

async function clientOf(query: QueryParams, clients: ClientRepository): Promise<OAuthClient> {
  const [id, ...more] = query.all('client_id');
  const client =
    id && more.length === 0 && id.length <= MAX_CLIENT_ID_LENGTH ? await clients.get(id) : undefined;
  if (client?.status !== 'active' || !grantTypesOf(client).includes(CODE_GRANT)) {
    throw cannotStart('The app that sent you here is not one this school lets people sign in to.');
  }
  return client;
}

/** The redirect URI: the one named, registered exactly so, or the client's only one when none is named. */
function redirectUriOf(query: QueryParams, client: OAuthClient): { uri: string; given: boolean } {
  const named = query.all('redirect_uri');
  const registered = client.redirect_uris ?? [];
  const [first] = named;
  if (named.length === 1 && first !== undefined && registered.includes(first))
    return { uri: first, given: true };
  const [only] = registered;
  if (named.length === 0 && registered.length === 1 && only !== undefined) return { uri: only, given: false };
  throw cannotStart(
    named.length === 0
      ? 'The app that sent you here did not say where to send you back.'
      : 'The app that sent you here asked to send you back to an address it has not registered.',
  );
}

type Checked =
  | { error: AuthorizationError; description: string }
  | { scopes: Scope[]; codeChallenge: string };

const SINGLE = ['response_type', 'scope', 'state', 'code_challenge', 'code_challenge_method'] as const;

/** The rest of the request, once the redirect URI is known to be safe to send an error to. */
function checkRequest(query: QueryParams, client: OAuthClient): Checked {
  const repeated = SINGLE.find((name) => query.all(name).length > 1);
  if (repeated) return { error: 'invalid_request', description: `${repeated} is given more than once.` };
  const param = (name: (typeof SINGLE)[number]) => query.all(name)[0];
  const responseType = param('response_type');
  if (responseType === undefined) {
    return { error: 'invalid_request', description: 'response_type is required: send code.' };
  }
  if (responseType !== 'code') {
    return { error: 'unsupported_response_type', description: 'Only response_type=code is supported.' };
  }
  const codeChallenge = param('code_challenge');
  if (codeChallenge === undefined) {
    return { error: 'invalid_request', description: 'code_challenge is required (PKCE, RFC 7636).' };
  }
  if (param('code_challenge_method') !== 'S256') {
    return {
      error: 'invalid_request',
      description: 'code_challenge_method must be S256; plain or none is not accepted.',
    };
  }
  if (!CODE_CHALLENGE.test(codeChallenge)) {
    return {
      error: 'invalid_request',
      description: 'code_challenge must be 43 to 128 unreserved characters (RFC 7636 section 4.2).',
    };
  }
  const asked = [...new Set((param('scope') ?? '').split(' ').filter(Boolean))];
  if (asked.some((scope) => !isScope(scope) || !client.scopes.includes(scope))) {
    return {
      error: 'invalid_scope',
      description: 'A scope asked for is unknown or not registered for this app.',
    };
  }
  return { scopes: asked.length > 0 ? (asked as Scope[]) : client.scopes, codeChallenge };
}

/** GET /api/sso/authorize: the sign-in page for a good request, an error otherwise. */
export async function startSignIn(
  { query, event, config }: ApiRequest,
  services: { clients: ClientRepository; authorizationRequests: AuthorizationRequestRepository },
): Promise<ApiResponse> {
  const client = await clientOf(query, services.clients);
  const redirect = redirectUriOf(query, client);
  const checked = checkRequest(query, client);
  // Returned unchanged (RFC 6749 section 4.1.2); a state given twice is refused and not returned.
  const states = query.all('state');
  const state = states.length === 1 ? states[0] : undefined;
  if ('error' in checked) {
    const params = { error: checked.error, error_description: checked.description, state };
    return redirectTo(302, backToClient(redirect.uri, params, config.issuer));
  }
  // A second tab's sign-in keeps the cookie the first one set, so both forms stay valid.
  const csrf = csrfCookieOf(event) ?? newOpaqueToken();
  const now = new Date();
  const request: AuthorizationRequest = {
    request_id: randomUUID(),
    client_id: client.client_id,
    client_name: client.name,
    redirect_uri: redirect.uri,
    redirect_uri_given: redirect.given,
    scopes: checked.scopes,
    ...(state === undefined ? {} : { state }),
    code_challenge: checked.codeChallenge,
    csrf_hash: opaqueTokenHash(csrf),
    created_at: now.toISOString(),
    expires_at: new Date(now.getTime() + AUTHORIZATION_REQUEST_TTL_SECONDS * 1000).toISOString(),
  };
  await services.authorizationRequests.save(request);
  const secure = new URL(config.publicBaseUrl).protocol === 'https:';
  return signInPage(
    { tenantName: config.tenantName, request, csrf },
    { cookies: [csrfCookie(csrf, AUTHORIZATION_REQUEST_TTL_SECONDS, secure)] },
  );
}
