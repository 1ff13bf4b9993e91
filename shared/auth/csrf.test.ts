import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { csrfCookie, csrfCookieOf, fromOwnPage } from './csrf';

const token = 'A'.repeat(43);
const event = (headers: Record<string, string>, cookies: string[] = []) =>
  ({ headers: { host: 'school.example', ...headers }, cookies }) as unknown as APIGatewayProxyEventV2;

describe('the CSRF cookie', () => {
  it('is __Host- prefixed over https, with what the prefix requires', () => {
    expect(csrfCookie(token, 600, true)).toBe(
      `__Host-sso_csrf=${token}; Path=/; Max-Age=600; HttpOnly; SameSite=Strict; Secure`,
    );
    expect(csrfCookieOf(event({}, [`__Host-sso_csrf=${token}`]), true)).toBe(token);
    expect(csrfCookieOf(event({}, [`sso_csrf=${token}`]), true)).toBeUndefined();
  });

  it('keeps the bare name over http, where a browser refuses __Host- without Secure', () => {
    expect(csrfCookie(token, 600, false)).toBe(
      `sso_csrf=${token}; Path=/api/sso; Max-Age=600; HttpOnly; SameSite=Strict`,
    );
    expect(csrfCookieOf(event({}, [`sso_csrf=${token}`]), false)).toBe(token);
  });
});

describe('a POST from an own page', () => {
  const base = 'https://school.example';

  it('names the own origin in Origin, or else in Referer', () => {
    expect(fromOwnPage(event({ origin: base }), base)).toBe(true);
    expect(fromOwnPage(event({ referer: `${base}/api/sso/authorize?x=1` }), base)).toBe(true);
  });

  it('is refused when it names neither, or another origin in either', () => {
    expect(fromOwnPage(event({}), base)).toBe(false);
    expect(fromOwnPage(event({ origin: 'null' }), base)).toBe(false);
    expect(fromOwnPage(event({ origin: 'https://attacker.example', referer: `${base}/` }), base)).toBe(false);
    expect(fromOwnPage(event({ referer: 'https://attacker.example/' }), base)).toBe(false);
    expect(fromOwnPage(event({ referer: 'http://school.example/' }), base)).toBe(false);
    expect(fromOwnPage(event({ referer: 'not a url' }), base)).toBe(false);
  });
});
