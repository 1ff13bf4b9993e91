// The second factor and the sign-on session over HTTP, with the tenant requiring a TOTP code of accounts
// with admin rights (ADMIN_TOTP_REQUIRED): an admin account without an authenticator is refused, a code
// is accepted once, a session that saw no code does not sign such an account in silently, and the
// session cookie carries the attributes that keep it to this service.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_USER_PASSWORD } from '../infra/local/local-run';
import { clearedSessionCookie, SESSION_COOKIE, startSession } from '../shared/auth/sign-on-session';
import { base32Decode, base32Encode, totp } from '../shared/auth/totp';
import { SessionRepository } from '../shared/data/session-repository';
import type { User } from '../shared/data/user-repository';
import { authorizeUrl, csrfCookieFrom, fieldOf, paramsOf } from './support/sign-in';
import { startTestApi, type TestApi } from './support/test-api';

let api: TestApi;
let admin: User;
beforeAll(async () => {
  api = await startTestApi({ adminTotpRequired: true });
  admin = (await api.users.byLogin('admin')) as User;
});
afterAll(() => api.stop());

/** Opens the sign-in page and posts the password; returns the answer and what the next form needs. */
async function password(username: string, params: Record<string, string | null> = {}) {
  const page = await fetch(authorizeUrl(api.url, params), { redirect: 'manual' });
  const html = await page.text();
  expect(page.status, html).toBe(200);
  const cookie = csrfCookieFrom(page.headers.getSetCookie()) as string;
  const form = { request: fieldOf(html, 'request') as string, csrf: fieldOf(html, 'csrf') as string };
  const answer = await postForm({ ...form, username, password: DEMO_USER_PASSWORD }, cookie);
  return { answer, form, cookie };
}

function postForm(fields: Record<string, string>, cookie: string) {
  return fetch(`${api.url}/api/sso/authorize`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: api.url, cookie },
    body: new URLSearchParams(fields),
  });
}

const sessionCookieOf = (response: Response) =>
  response.headers.getSetCookie().find((c) => c.startsWith(`${SESSION_COOKIE}=`));

describe('ADMIN_TOTP_REQUIRED', () => {
  it('refuses an admin account without an authenticator, with a page that says to ask an operator', async () => {
    const { answer } = await password('admin');
    expect(answer.status).toBe(403);
    expect(await answer.text()).toContain('need an authenticator app to sign in');
    expect(answer.headers.get('location')).toBeNull();
    expect(sessionCookieOf(answer)).toBeUndefined();

    // An account without admin rights signs in with its password alone.
    const { answer: teacher } = await password('teacher');
    expect(teacher.status).toBe(303);
    expect(paramsOf(teacher.headers.get('location') as string).code).toBeDefined();
  });

  it('asks an enrolled admin for the code, accepts it once, and refuses the same code again', async () => {
    const secret = base32Encode(randomBytes(20));
    await api.users.update(admin.user_id, { totp_secret: secret });
    try {
      const first = await password('admin');
      expect(first.answer.status).toBe(200);
      expect(await first.answer.text()).toContain('name="otp"');
      const code = totp(base32Decode(secret), Date.now() / 1000);
      const signedIn = await postForm({ ...first.form, otp: code }, first.cookie);
      expect(signedIn.status).toBe(303);

      const second = await password('admin');
      expect(second.answer.status).toBe(200);
      const replayed = await postForm({ ...second.form, otp: code }, second.cookie);
      expect(replayed.status).toBe(400);
      expect(await replayed.text()).toContain('already used');
      expect(replayed.headers.get('location')).toBeNull();
    } finally {
      await api.users.removeTotp(admin.user_id);
    }
  });

  it('does not sign an admin in silently through a session that saw no code', async () => {
    const sessions = new SessionRepository(api.db, api.tableName);
    const config = { publicBaseUrl: api.url, sessionIdleSeconds: 600, sessionAbsoluteSeconds: 3600 };
    const { cookie } = await startSession(admin, ['pwd'], sessions, config);
    const sent = { cookie: cookie.split(';')[0] as string };
    const silent = await fetch(authorizeUrl(api.url, { prompt: 'none' }), {
      redirect: 'manual',
      headers: sent,
    });
    expect(silent.status).toBe(302);
    expect(paramsOf(silent.headers.get('location') as string).error).toBe('login_required');
    const page = await fetch(authorizeUrl(api.url), { redirect: 'manual', headers: sent });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('name="password"');

    // The same kind of session signs in an account that needs no code.
    const teacher = (await api.users.byLogin('teacher')) as User;
    const other = await startSession(teacher, ['pwd'], sessions, config);
    const answered = await fetch(authorizeUrl(api.url, { prompt: 'none' }), {
      redirect: 'manual',
      headers: { cookie: other.cookie.split(';')[0] as string },
    });
    expect(paramsOf(answered.headers.get('location') as string).code).toBeDefined();
  });
});

describe('the session cookie', () => {
  it('is HttpOnly, SameSite=Lax and kept to /api/sso; Secure when the base address is https', async () => {
    const { answer } = await password('teacher');
    expect(answer.status).toBe(303);
    const attributes = (sessionCookieOf(answer) as string).split(';').map((a) => a.trim());
    expect(attributes).toEqual(
      expect.arrayContaining(['Path=/api/sso', 'HttpOnly', 'SameSite=Lax', 'Max-Age=86400']),
    );
    expect(attributes).not.toContain('Secure');

    const sessions = new SessionRepository(api.db, api.tableName);
    const https = {
      publicBaseUrl: 'https://school.example',
      sessionIdleSeconds: 600,
      sessionAbsoluteSeconds: 3600,
    };
    const teacher = (await api.users.byLogin('teacher')) as User;
    const { cookie } = await startSession(teacher, ['pwd'], sessions, https);
    for (const setCookie of [cookie, clearedSessionCookie(https)]) {
      expect(setCookie.split(';').map((a) => a.trim())).toEqual(
        expect.arrayContaining(['Path=/api/sso', 'HttpOnly', 'SameSite=Lax', 'Secure']),
      );
    }
  });
});
