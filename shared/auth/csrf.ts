// Cross-site request forgery defence of the sign-in form: a random token minted for each authorization
// request, in an HttpOnly, SameSite=Strict cookie (`__Host-` prefixed over https) and in a hidden field of
// the form, which must match each other and the hash stored with that request; and a POST that does not
// name the service's own origin, in Origin or else Referer, is refused outright.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { header } from '../http/request';

const CSRF_COOKIE = 'sso_csrf';
/** An opaque token (opaque-token.ts): 32 random bytes, base64url. */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** Whether the service is served over https, where its cookies are Secure. */
export const servedOverHttps = (publicBaseUrl: string) => new URL(publicBaseUrl).protocol === 'https:';

/**
 * The CSRF cookie's name. Over https it is `__Host-` prefixed, so the browser takes it only from this
 * origin, Secure, for every path and no other domain: a sibling subdomain or a plain-http page cannot
 * plant one. A browser refuses such a cookie without Secure, so the local run over http keeps the bare
 * name.
 */
export const csrfCookieName = (secure: boolean) => (secure ? `__Host-${CSRF_COOKIE}` : CSRF_COOKIE);

/** The opaque token a cookie of the request named `name` holds, when it holds one of ours. */
export function opaqueCookieOf(event: APIGatewayProxyEventV2, name: string): string | undefined {
  for (const cookie of event.cookies ?? []) {
    const split = cookie.indexOf('=');
    if (split < 0 || cookie.slice(0, split).trim() !== name) continue;
    const value = cookie.slice(split + 1).trim();
    return TOKEN.test(value) ? value : undefined;
  }
  return undefined;
}

/** The token in the request's CSRF cookie, when it holds one of ours. */
export const csrfCookieOf = (event: APIGatewayProxyEventV2, secure: boolean) =>
  opaqueCookieOf(event, csrfCookieName(secure));

/**
 * The Set-Cookie value: sent back only with the service's own requests, never to scripts. `__Host-`
 * requires Path=/; over http the cookie keeps to the sign-in endpoints.
 */
export function csrfCookie(token: string, maxAgeSeconds: number, secure: boolean): string {
  return [
    `${csrfCookieName(secure)}=${token}`,
    `Path=${secure ? '/' : '/api/sso'}`,
    `Max-Age=${maxAgeSeconds}`,
    'HttpOnly',
    'SameSite=Strict',
    ...(secure ? ['Secure'] : []),
  ].join('; ');
}

/** Whether two secrets are equal, in a time that does not tell how much of them matched. */
export function sameSecret(a: string, b: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(a), digest(b));
}

/**
 * Whether `origin` is the service's own: its public base address, or the host the browser sent this very
 * request to (a local run reached as localhost rather than 127.0.0.1) with the base address's scheme. An
 * Origin is a bare scheme, host and port (RFC 6454 section 6.1): one with anything more, or with another
 * scheme, names another origin.
 */
function isOwnOrigin(event: APIGatewayProxyEventV2, origin: string, publicBaseUrl: string): boolean {
  const own = new URL(publicBaseUrl);
  if (origin === own.origin) return true;
  if (!URL.canParse(origin)) return false;
  const named = new URL(origin);
  return named.origin === origin && named.protocol === own.protocol && named.host === header(event, 'host');
}

/**
 * Whether a POST comes from one of the service's own pages: its Origin is the service's own or, for a
 * browser that sends none, its Referer lies on the service's own origin. A POST naming neither is
 * refused: every browser sends one of them with a form, and a request that hides both cannot be told
 * apart from one forged elsewhere (the pages' Referrer-Policy `same-origin` keeps the Referer for their
 * own forms).
 */
export function fromOwnPage(event: APIGatewayProxyEventV2, publicBaseUrl: string): boolean {
  const origin = header(event, 'origin');
  if (origin !== undefined) return isOwnOrigin(event, origin, publicBaseUrl);
  const referer = header(event, 'referer');
  if (referer === undefined || !URL.canParse(referer)) return false;
  return isOwnOrigin(event, new URL(referer).origin, publicBaseUrl);
}
