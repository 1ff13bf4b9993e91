// The end-session endpoint (OpenID Connect RP-Initiated Logout 1.0): an application sends the browser
// here, by GET or a form POST, to end the person's sign-on session, and may have them sent back to one of
// its registered post_logout_redirect_uris with its state. The session ends at once when the request's
// id_token_hint names the session's person; otherwise the person is asked first (section 2: a logout
// request anyone can trigger must not end a session unasked), and their answer is a same-site POST that
// carries the SameSite=Lax cookie a cross-site POST never does; for that reason an application's POST
// that arrives without the cookie is sent on as the same request by GET. An unregistered address is never sent to.
// Ending the session revokes every sign-in it issued a code for, so their tokens stop working too.
import type { ClientRepository } from '../data/client-repository';
import type { RefreshTokenRepository } from '../data/refresh-token-repository';
import type { SessionRepository } from '../data/session-repository';
import type { UserRepository } from '../data/user-repository';
import type { ApiRequest, ApiResponse } from '../exchange';
import { bodyText, header } from '../http/request';
import { fromOwnPage } from './csrf';
import { PageError, redirectTo } from './html-page';
import { LOGOUT_PARAMS } from './oauth-terms';
import { chooseLocale, type ErrorText } from './page-text';
import { signedOutPage, signOutPage } from './sign-in-page';
import { clearedSessionCookie, currentSession, sessionHashOf } from './sign-on-session';
import type { TokenVerifier } from './tokens';

type LogoutParams = Partial<Record<(typeof LOGOUT_PARAMS)[number] | 'confirm', string>>;

export interface LogoutServices {
  clients: ClientRepository;
  sessions: SessionRepository;
  users: UserRepository;
  refreshTokens: Pick<RefreshTokenRepository, 'revokeFamily'>;
  verifier: Pick<TokenVerifier, 'idTokenHint'>;
}

const cannotSignOut = (reason: (text: ErrorText) => string) =>
  new PageError(400, (text) => ({
    title: text.cannotSignOut,
    message: `${reason(text)} ${text.goBackOrClose}`,
  }));

/** The request's parameters: the query of a GET, the form of a POST; each given at most once. */
function paramsOf({ event }: ApiRequest): LogoutParams {
  const post = event.requestContext.http.method === 'POST';
  if (post && !/^application\/x-www-form-urlencoded\s*(;|$)/i.test(header(event, 'content-type') ?? '')) {
    throw new PageError(415, (text) => ({ title: text.formRefused, message: text.notASignOutForm }));
  }
  const source = new URLSearchParams(post ? bodyText(event) : (event.rawQueryString ?? ''));
  const params: LogoutParams = {};
  for (const [name, value] of source) {
    const known = [...LOGOUT_PARAMS, 'confirm' as const].find((p) => p === name);
    if (!known || value === '') continue;
    if (params[known] !== undefined) throw cannotSignOut((text) => text.givenTwice(known));
    params[known] = value;
  }
  return params;
}

/** Where to send the person afterwards, if the request names an address its client registered. */
async function destinationOf(
  params: LogoutParams,
  hintClient: string | undefined,
  clients: ClientRepository,
): Promise<string | undefined> {
  if (params.client_id !== undefined && hintClient !== undefined && params.client_id !== hintClient) {
    throw cannotSignOut((text) => text.hintForAnotherApp);
  }
  const uri = params.post_logout_redirect_uri;
  if (uri === undefined) return undefined;
  const clientId = hintClient ?? params.client_id;
  const client = clientId === undefined || clientId.length > 256 ? undefined : await clients.get(clientId);
  if (client?.status !== 'active' || !(client.post_logout_redirect_uris ?? []).includes(uri)) {
    throw cannotSignOut((text) => text.unregisteredLogoutUri);
  }
  const query =
    params.state === undefined
      ? ''
      : `${uri.includes('?') ? '&' : '?'}${new URLSearchParams({ state: params.state })}`;
  return `${uri}${query}`;
}

/** GET and POST /api/sso/logout. */
export async function logout(request: ApiRequest, services: LogoutServices): Promise<ApiResponse> {
  const { event, config } = request;
  const params = paramsOf(request);
  // A cross-site form POST never carries the SameSite=Lax session cookie: without this the session
  // would live on while the app was told it had ended. The same request as a top-level GET carries it.
  const post = event.requestContext.http.method === 'POST';
  if (post && params.confirm === undefined && sessionHashOf(event) === undefined) {
    return redirectTo(
      303,
      `${config.issuer}/logout?${new URLSearchParams(params as Record<string, string>)}`,
    );
  }
  const hint =
    params.id_token_hint === undefined
      ? undefined
      : await services.verifier.idTokenHint(params.id_token_hint);
  if (params.id_token_hint !== undefined && !hint) {
    throw cannotSignOut((text) => text.foreignIdToken);
  }
  const destination = await destinationOf(params, hint?.clientId, services.clients);
  const locale = chooseLocale(params.ui_locales, header(event, 'accept-language'), config.defaultLocale);
  const live = await currentSession(event, services);
  const confirmed =
    params.confirm === 'yes' &&
    event.requestContext.http.method === 'POST' &&
    fromOwnPage(event, config.publicBaseUrl);
  if (live && hint?.sub !== live.user.entity_id && !confirmed) {
    const { confirm: _confirm, ...hidden } = params;
    return signOutPage({
      tenantName: config.tenantName,
      locale,
      hidden: hidden as Record<string, string>,
      ...(destination === undefined ? {} : { redirectUri: destination }),
    });
  }
  if (live) {
    const now = new Date();
    const familyEnd = new Date(now.getTime() + config.refreshTokenTtlSeconds * 1000).toISOString();
    await Promise.all(
      [...(live.session.sign_ins ?? [])].map((signIn) =>
        services.refreshTokens.revokeFamily(signIn, familyEnd, now),
      ),
    );
  }
  const hash = sessionHashOf(event);
  if (hash !== undefined) await services.sessions.delete(hash);
  const cookies = [clearedSessionCookie(config)];
  if (destination !== undefined) return { ...redirectTo(303, destination), cookies };
  return signedOutPage({ tenantName: config.tenantName, locale }, { cookies });
}
