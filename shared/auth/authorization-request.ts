// The authorization endpoint (RFC 6749 section 4.1.1, PKCE per RFC 7636 section 4.3, RFC 9700, OpenID
// Connect Core 1.0 section 3.1.2). The client and its redirect URI are checked first, and a bad one gets
// a page, never a redirect (RFC 6749 section 4.1.2.1): an unregistered URI is never sent anywhere. Any
// other fault goes back to the checked redirect URI as an error with state and iss. A good request is
// answered at once from the browser's sign-on session when it has a live one that satisfies `prompt` and
// `max_age`; otherwise it is stored and the sign-in page shown (or, for prompt=none, login_required).

import { randomUUID } from 'node:crypto';
import type { AuthorizationCodeRepository } from '../data/authorization-code-repository';
import type {
  AuthorizationRequest,
  AuthorizationRequestRepository,
} from '../data/authorization-request-repository';
import {
  type ClientRepository,
  grantTypesOf,
  isPublicClient,
  type OAuthClient,
} from '../data/client-repository';
import type { RecordRepository } from '../data/record-repository';
import type { SessionRepository } from '../data/session-repository';
import type { UserRepository } from '../data/user-repository';
import { isScope, type Scope } from '../domain/groups';
import { LIMITS } from '../domain/limits';
import type { ApiRequest, ApiResponse } from '../exchange';
import { quote } from '../http/quote';
import { header, type QueryParams } from '../http/request';
import { authorizationResponse, needsSecondFactor } from './authorization-response';
import { csrfCookie, servedOverHttps } from './csrf';
import { PageError, redirectTo } from './html-page';
import { type IdentityScope, isIdentityScope } from './identity-claims';
import type { AuthorizationError, GrantType } from './oauth-terms';
import { newOpaqueToken, opaqueTokenHash } from './opaque-token';
import { chooseLocale, type ErrorText } from './page-text';
import { signInPage } from './sign-in-page';
import { currentSession } from './sign-on-session';
import type { TokenVerifier } from './tokens';

/** How long a sign-in page stays usable, and its CSRF cookie with it. */
export const AUTHORIZATION_REQUEST_TTL_SECONDS = 600;

const CODE_GRANT: GrantType = 'authorization_code';
/** RFC 7636 section 4.2: 43 to 128 unreserved characters. */
const CODE_CHALLENGE = /^[A-Za-z0-9._~-]{43,128}$/;
/** Longer than any id the admin CLI registers, and short enough to be a table key. */
const MAX_CLIENT_ID_LENGTH = 256;

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

const cannotStart = (reason: (text: ErrorText) => string) =>
  new PageError(400, (text) => ({
    title: text.cannotStart,
    message: `${reason(text)} ${text.notSentAnywhere}`,
  }));

async function clientOf(query: QueryParams, clients: ClientRepository): Promise<OAuthClient> {
  const [id, ...more] = query.all('client_id');
  const client =
    id && more.length === 0 && id.length <= MAX_CLIENT_ID_LENGTH ? await clients.get(id) : undefined;
  if (client?.status !== 'active' || !grantTypesOf(client).includes(CODE_GRANT)) {
    throw cannotStart((text) => text.unknownApp);
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
  throw cannotStart((text) => (named.length === 0 ? text.noRedirectUri : text.unregisteredRedirectUri));
}

/** What OpenID Connect adds to a request: who the client wants to know about, and how fresh a sign-in. */
interface OpenIdParams {
  identityScopes: IdentityScope[];
  nonce?: string;
  /** login and select_account both show the sign-in page, whatever session the browser has. */
  prompt?: 'none' | 'login';
  maxAge?: number;
  loginHint?: string;
}

type Checked =
  | { error: AuthorizationError; description: string }
  | ({ scopes: Scope[]; codeChallenge?: string } & OpenIdParams);

const SINGLE = [
  'response_type',
  'scope',
  'state',
  'code_challenge',
  'code_challenge_method',
  'nonce',
  'prompt',
  'max_age',
  'login_hint',
  'id_token_hint',
  'ui_locales',
] as const;

/** OpenID Connect's parameters (Core 1.0 sections 3.1.2.1 and 5.4), or the error they earn. */
function checkOpenId(
  param: (name: (typeof SINGLE)[number]) => string | undefined,
  identityScopes: IdentityScope[],
): OpenIdParams | { error: AuthorizationError; description: string } {
  if (identityScopes.length > 0 && !identityScopes.includes('openid')) {
    return { error: 'invalid_scope', description: 'profile, email and roles are asked for with openid.' };
  }
  const nonce = param('nonce');
  const loginHint = param('login_hint');
  if ((nonce?.length ?? 0) > LIMITS.openIdParamChars || (loginHint?.length ?? 0) > LIMITS.openIdParamChars) {
    return {
      error: 'invalid_request',
      description: `nonce and login_hint are at most ${LIMITS.openIdParamChars} characters.`,
    };
  }
  const prompts = (param('prompt') ?? '').split(' ').filter(Boolean);
  if (prompts.includes('none') && prompts.length > 1) {
    return { error: 'invalid_request', description: 'prompt=none cannot be combined with other values.' };
  }
  const unknownPrompt = prompts.find((p) => !['none', 'login', 'consent', 'select_account'].includes(p));
  if (unknownPrompt !== undefined) {
    return { error: 'invalid_request', description: `prompt=${quote(unknownPrompt)} is not a prompt value.` };
  }
  const maxAgeText = param('max_age');
  if (maxAgeText !== undefined && !/^\d{1,9}$/.test(maxAgeText)) {
    return { error: 'invalid_request', description: 'max_age must be a number of seconds.' };
  }
  // No consent is asked (clients are registered by the school), so consent needs nothing more. One
  // browser holds one session, so select_account, like login, shows the sign-in page: another account
  // may sign in there, and its session replaces the old one.
  const asks = prompts.includes('login') || prompts.includes('select_account');
  const prompt = prompts.includes('none') ? 'none' : asks ? 'login' : undefined;
  return {
    identityScopes,
    ...(nonce === undefined ? {} : { nonce }),
    ...(prompt === undefined ? {} : { prompt }),
    ...(maxAgeText === undefined ? {} : { maxAge: Number(maxAgeText) }),
    ...(loginHint === undefined ? {} : { loginHint }),
  };
}

/**
 * PKCE with S256 (RFC 7636), which every public client and every OAuth request must send. A confidential
 * client's OpenID Connect request with a nonce may leave it out (RFC 9700 section 2.1.1: its nonce,
 * checked in the ID token, defends the code, and its secret keeps the code from anyone else), because
 * stock confidential-client libraries send none. `plain` is refused always.
 */
function checkPkce(
  param: (name: (typeof SINGLE)[number]) => string | undefined,
  client: OAuthClient,
  scopes: string[],
): { codeChallenge?: string } | { error: AuthorizationError; description: string } {
  const codeChallenge = param('code_challenge');
  const method = param('code_challenge_method');
  if (codeChallenge === undefined) {
    if (method !== undefined) {
      return {
        error: 'invalid_request',
        description: 'code_challenge_method is given without a code_challenge.',
      };
    }
    if (!isPublicClient(client) && scopes.includes('openid') && param('nonce') !== undefined) return {};
    return {
      error: 'invalid_request',
      description:
        'code_challenge is required (PKCE, RFC 7636); only a confidential client asking for openid with a nonce may leave it out.',
    };
  }
  if (method !== 'S256') {
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
  return { codeChallenge };
}

/**
 * A parameter's value, or undefined for one sent empty: "parameters sent without a value MUST be treated
 * as if they were omitted from the request" (RFC 6749 section 3.1). So `nonce=` is no nonce: it cannot
 * stand in for PKCE, and no ID token carries it.
 */
const present = (value: string | undefined) => (value === '' ? undefined : value);

/** The rest of the request, once the redirect URI is known to be safe to send an error to. */
function checkRequest(query: QueryParams, client: OAuthClient): Checked {
  const repeated = SINGLE.find((name) => query.all(name).length > 1);
  if (repeated) return { error: 'invalid_request', description: `${repeated} is given more than once.` };
  const param = (name: (typeof SINGLE)[number]) => present(query.all(name)[0]);
  const responseType = param('response_type');
  if (responseType === undefined) {
    return { error: 'invalid_request', description: 'response_type is required: send code.' };
  }
  if (responseType !== 'code') {
    return { error: 'unsupported_response_type', description: 'Only response_type=code is supported.' };
  }
  const named = [...new Set((param('scope') ?? '').split(' ').filter(Boolean))];
  const pkce = checkPkce(param, client, named);
  if ('error' in pkce) return pkce;
  // OpenID Connect's scopes say what the client may know of the person, not what it may read: any
  // client of the code flow may ask for them.
  const identityScopes = named.filter(isIdentityScope);
  const asked = named.filter((scope) => !isIdentityScope(scope));
  if (asked.some((scope) => !isScope(scope) || !client.scopes.includes(scope))) {
    return {
      error: 'invalid_scope',
      description: 'A scope asked for is unknown or not registered for this app.',
    };
  }
  const openId = checkOpenId(param, identityScopes);
  if ('error' in openId) return openId;
  // No scope at all asks for everything the client may read; a request for identity scopes alone, none.
  const scopes = asked.length > 0 || named.length > 0 ? (asked as Scope[]) : client.scopes;
  return { scopes, ...pkce, ...openId };
}

/** What answering from the browser's session needs: the session, the account, the entity and the codes. */
export interface AuthorizeServices {
  clients: ClientRepository;
  verifier: Pick<TokenVerifier, 'idTokenHint'>;
  authorizationRequests: AuthorizationRequestRepository;
  sessions: SessionRepository;
  users: UserRepository;
  records: RecordRepository;
  codes: AuthorizationCodeRepository;
}

/**
 * GET /api/sso/authorize: a code at once from a live session that satisfies the request, the sign-in
 * page when the person must sign in, an error otherwise.
 */
export async function startSignIn(
  { query, event, config }: ApiRequest,
  services: AuthorizeServices,
): Promise<ApiResponse> {
  const client = await clientOf(query, services.clients);
  const redirect = redirectUriOf(query, client);
  const checked = checkRequest(query, client);
  // Returned unchanged (RFC 6749 section 4.1.2); a state given twice is refused and not returned.
  const states = query.all('state');
  const state = states.length === 1 ? present(states[0]) : undefined;
  if ('error' in checked) {
    const params = { error: checked.error, error_description: checked.description, state };
    return redirectTo(302, backToClient(redirect.uri, params, config.issuer));
  }
  const idTokenHint = query.all('id_token_hint')[0];
  const hint = idTokenHint === undefined ? undefined : await services.verifier.idTokenHint(idTokenHint);
  if (idTokenHint !== undefined && !hint) {
    const description = 'id_token_hint is not an ID token this school issued.';
    const params = { error: 'invalid_request', error_description: description, state };
    return redirectTo(302, backToClient(redirect.uri, params, config.issuer));
  }
  const now = new Date();
  const request = {
    client_id: client.client_id,
    redirect_uri: redirect.uri,
    redirect_uri_given: redirect.given,
    scopes: checked.scopes,
    ...(checked.identityScopes.length > 0 ? { identity_scopes: checked.identityScopes } : {}),
    ...(checked.nonce === undefined ? {} : { nonce: checked.nonce }),
    ...(state === undefined ? {} : { state }),
    ...(checked.codeChallenge === undefined ? {} : { code_challenge: checked.codeChallenge }),
  };
  const live = checked.prompt === 'login' ? undefined : await currentSession(event, services, now);
  const fresh =
    live !== undefined &&
    // OpenID Connect Core 1.0 section 3.1.2.1: the session must be the person the hint names.
    (hint === undefined || hint.sub === live.user.entity_id) &&
    (checked.maxAge === undefined ||
      Math.floor(now.getTime() / 1000) - live.session.auth_time <= checked.maxAge) &&
    // A session from before the tenant required a second factor of this account does not satisfy it.
    (!needsSecondFactor(live.user, config) || live.session.amr.includes('otp'));
  if (live && fresh && (await services.sessions.touch(live.session, config.sessionIdleSeconds, now))) {
    const answer = await authorizationResponse(services, request, live.user, live.session);
    return redirectTo(302, backToClient(redirect.uri, answer, config.issuer));
  }
  if (checked.prompt === 'none') {
    const params = {
      error: 'login_required',
      error_description:
        'The person is not signed in here, and the request asked not to show a sign-in page.',
      state,
    };
    return redirectTo(302, backToClient(redirect.uri, params, config.issuer));
  }
  const locale = chooseLocale(
    query.all('ui_locales')[0],
    header(event, 'accept-language'),
    config.defaultLocale,
  );
  // A token of the service's own for each request, never one the browser brings: a cookie planted by
  // someone else must not become the token a form is checked against. A second tab's page therefore
  // replaces the first's cookie, and only the newest form of a browser can be sent.
  const csrf = newOpaqueToken();
  const stored: AuthorizationRequest = {
    ...request,
    request_id: randomUUID(),
    client_name: client.name,
    locale,
    ...(checked.loginHint === undefined ? {} : { login_hint: checked.loginHint }),
    csrf_hash: opaqueTokenHash(csrf),
    created_at: now.toISOString(),
    expires_at: new Date(now.getTime() + AUTHORIZATION_REQUEST_TTL_SECONDS * 1000).toISOString(),
  };
  await services.authorizationRequests.save(stored);
  const secure = servedOverHttps(config.publicBaseUrl);
  return signInPage(
    {
      tenantName: config.tenantName,
      locale,
      request: stored,
      csrf,
      ...(checked.loginHint === undefined ? {} : { username: checked.loginHint }),
    },
    { cookies: [csrfCookie(csrf, AUTHORIZATION_REQUEST_TTL_SECONDS, secure)] },
  );
}
