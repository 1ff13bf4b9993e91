// Cross-site request forgery defence of the sign-in form: a random token in an HttpOnly, SameSite=Strict
// cookie and in a hidden field of the form, which must match each other and the hash stored with the
// authorization request; and a POST that names another origin is refused outright.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { header } from '../http/request';

export const CSRF_COOKIE = 'sso_csrf';
/** An opaque token (opaque-token.ts): 32 random bytes, base64url. */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

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
export const csrfCookieOf = (event: APIGatewayProxyEventV2) => opaqueCookieOf(event, CSRF_COOKIE);

/** The Set-Cookie value: sent back only with the sign-in endpoints' own requests, never to scripts. */
export function csrfCookie(token: string, maxAgeSeconds: number, secure: boolean): string {
  return [
    `${CSRF_COOKIE}=${token}`,
    'Path=/api/sso',
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
 * Whether the request's Origin, when it names one, is the service's own: its public base address, or
 * the host the browser sent this very request to (a local run reached as localhost rather than 127.0.0.1)
 * with the base address's scheme. An Origin is a bare scheme, host and port (RFC 6454 section 6.1): one
 * with anything more, or with another scheme, names another origin.
 */
export function fromOwnOrigin(event: APIGatewayProxyEventV2, publicBaseUrl: string): boolean {
  const origin = header(event, 'origin');
  const own = new URL(publicBaseUrl);
  if (origin === undefined || origin === own.origin) return true;
  if (!URL.canParse(origin)) return false;
  const named = new URL(origin);
  return named.origin === origin && named.protocol === own.protocol && named.host === header(event, 'host');
}
