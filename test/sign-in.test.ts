// The authorization endpoint and its sign-in form over HTTP (RFC 6749 section 4.1, RFC 7636, RFC 9207,
// RFC 9700): which requests get the page, which a page and which an error redirect; the form's CSRF
// defence; slowing and locking out guessing; and the single-use code a sign-in ends with.
import { randomBytes, randomUUID } from 'node:crypto';
import { type IncomingHttpHeaders, request } from 'node:http';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_APP_ID } from '../infra/local/bootstrap';
import { DEMO_USER_PASSWORD } from '../infra/local/local-run';
import { opaqueTokenHash } from '../shared/auth/opaque-token';
import { hashSecret } from '../shared/auth/secret-hash';
import {
  countedAttempts,
  SIGN_IN_LIMITS,
  SignInThrottle,
  type Ticket,
} from '../shared/auth/sign-in-throttle';
import { base32Decode, base32Encode, totp } from '../shared/auth/totp';
import { AuthorizationCodeRepository } from '../shared/data/authorization-code-repository';
import { AuthorizationRequestRepository } from '../shared/data/authorization-request-repository';
import { ClientRepository, type OAuthClient } from '../shared/data/client-repository';
import { keys } from '../shared/data/keys';
import {
  accountThrottleSubject,
  addressThrottleSubject,
  nameThrottleSubject,
  SignInThrottleRepository,
} from '../shared/data/sign-in-throttle-repository';
import type { User } from '../shared/data/user-repository';
import { scopes } from '../shared/domain/groups';
import { authorizeUrl, csrfCookieFrom, fieldOf, paramsOf, pkce, REDIRECT_URI } from './support/sign-in';
import { startTestApi, type TestApi } from './support/test-api';

let api: TestApi;
let codes: AuthorizationCodeRepository;
let requests: AuthorizationRequestRepository;
let throttle: SignInThrottleRepository;
let clients: ClientRepository;
beforeAll(async () => {
  api = await startTestApi();
  codes = new AuthorizationCodeRepository(api.db, api.tableName);
  requests = new AuthorizationRequestRepository(api.db, api.tableName);
  throttle = new SignInThrottleRepository(api.db, api.tableName);
  clients = new ClientRepository(api.db, api.tableName);
});
afterAll(() => api.stop());

const issuer = () => `${api.url}/api/sso`;

/** Each test signs in from its own loopback address, so the per-address counters stay apart. */
let lastAddress = 10;
const newAddress = () => `127.0.0.${++lastAddress}`;

async function itemsIn(partition: string): Promise<number> {
  const { Count } = await api.db.send(
    new QueryCommand({
      TableName: api.tableName,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': partition },
      Select: 'COUNT',
      ConsistentRead: true,
    }),
  );
  return Count ?? 0;
}

/** Opens the sign-in page as a browser would, keeping what the form needs. */
async function openSignIn(params: Record<string, string | null> = {}) {
  const response = await fetch(authorizeUrl(api.url, params), { redirect: 'manual' });
  const html = await response.text();
  expect(response.status, html).toBe(200);
  const cookie = csrfCookieFrom(response.headers.getSetCookie()) as string;
  const form = {
    request: fieldOf(html, 'request') as string,
    csrf: fieldOf(html, 'csrf') as string,
  };
  return { response, html, cookie, form };
}

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
  ms: number;
}

/** Posts the sign-in form from a loopback address, as the page would (its Origin, its cookie). */
function post(
  fields: Record<string, string> | string,
  options: {
    from: string;
    cookie?: string;
    origin?: string | null;
    referer?: string;
    contentType?: string;
    host?: string;
  },
): Promise<Answer> {
  const body = typeof fields === 'string' ? fields : new URLSearchParams(fields).toString();
  const origin = options.origin === undefined ? new URL(api.url).origin : options.origin;
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const outgoing = request(
      `${api.url}/api/sso/authorize`,
      {
        method: 'POST',
        localAddress: options.from,
        headers: {
          'content-type': options.contentType ?? 'application/x-www-form-urlencoded',
          ...(origin === null ? {} : { origin }),
          ...(options.referer ? { referer: options.referer } : {}),
          ...(options.cookie ? { cookie: options.cookie } : {}),
          ...(options.host ? { host: options.host } : {}),
        },
      },
      (incoming) => {
        const chunks: Buffer[] = [];
        incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
        incoming.on('end', () =>
          resolve({
            status: incoming.statusCode ?? 0,
            headers: incoming.headers,
            body: Buffer.concat(chunks).toString('utf8'),
            ms: performance.now() - started,
          }),
        );
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

/** Opens the page and posts its form with these credentials. */
async function signIn(
  username: string,
  password: string,
  from: string,
  params: Record<string, string | null> = {},
) {
  const page = await openSignIn(params);
  const answer = await post({ ...page.form, username, password }, { from, cookie: page.cookie });
  return { page, answer };
}

function expectPageHeaders(headers: IncomingHttpHeaders | Headers) {
  const get = (name: string) => (headers instanceof Headers ? headers.get(name) : headers[name]);
  const policy = String(get('content-security-policy'));
  expect(policy).toMatch(
    /^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/]+=*'; img-src data:; form-action /,
  );
  expect(policy).toContain("frame-ancestors 'none'");
  expect(policy).toContain("base-uri 'none'");
  expect(get('x-frame-options')).toBe('DENY');
  // A page with a form keeps its Referer (and so its Origin) for itself; nothing else sends one.
  const hasForm = !policy.includes("form-action 'none'");
  expect(get('referrer-policy')).toBe(hasForm ? 'same-origin' : 'no-referrer');
  expect(get('cache-control')).toBe('no-store');
}

/** A page with its request-specific parts (request id, CSRF token, the name typed) blanked out. */
const withoutSpecifics = (html: string) =>
  html
    .replace(/(name="(?:request|csrf)" value=")[^"]*"/g, '$1"')
    .replace(/(id="username"[^>]*value=")[^"]*"/, '$1"');

async function registerClient(changes: Partial<OAuthClient>): Promise<OAuthClient> {
  const client: OAuthClient = {
    client_id: `test-${randomUUID().slice(0, 8)}`,
    name: 'Test app',
    scopes: [...scopes],
    status: 'active',
    created_at: new Date().toISOString(),
    grant_types: ['authorization_code'],
    redirect_uris: ['https://app.example.org/callback'],
    ...changes,
  };
  await clients.put(client);
  return client;
}

describe('GET /api/sso/authorize: a good request (RFC 6749 section 4.1.1)', () => {
  it('shows the sign-in page: the form contract, the CSRF cookie and the security headers', async () => {
    const { challenge } = pkce();
    const { response, html, cookie, form } = await openSignIn({ code_challenge: challenge, state: 'xyz' });
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expectPageHeaders(response.headers);
    expect(response.headers.get('content-security-policy')).toContain(
      "form-action 'self' http://127.0.0.1:8976;",
    );
    const [setCookie] = response.headers.getSetCookie();
    expect(setCookie).toMatch(
      /^sso_csrf=[A-Za-z0-9_-]{43}; Path=\/api\/sso; Max-Age=600; HttpOnly; SameSite=Strict$/,
    );
    expect(cookie).toBe(`sso_csrf=${form.csrf}`);

    expect(html).toMatch(/^<!doctype html>\n<html lang="en">/);
    expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    expect(html).toContain('<form method="post" action="/api/sso/authorize">');
    expect(html).toContain('<label for="username">');
    expect(html).toContain('<label for="password">');
    expect(html).toMatch(/<input id="username" name="username" type="text" autocomplete="username"/);
    expect(html).toMatch(
      /<input id="password" name="password" type="password" autocomplete="current-password"/,
    );
    expect(html).toContain('Demo School (Agrupamento de Escolas Demo)');
    expect(html).toContain('Demo app, a public client (local run only)');
    expect(html).not.toMatch(/<script|https?:\/\/|style="/i);

    const stored = await requests.get(form.request);
    expect(stored).toMatchObject({
      client_id: DEMO_APP_ID,
      redirect_uri: REDIRECT_URI,
      redirect_uri_given: true,
      scopes: [...scopes],
      state: 'xyz',
      code_challenge: challenge,
      csrf_hash: opaqueTokenHash(form.csrf),
    });
    const ttl = Date.parse(stored?.expires_at ?? '') - Date.now();
    expect(ttl).toBeGreaterThan(590_000);
    expect(ttl).toBeLessThanOrEqual(600_000);
  });

  it('mints its own CSRF token for every page, never taking one the browser brings', async () => {
    const first = await openSignIn();
    const response = await fetch(authorizeUrl(api.url), { headers: { cookie: first.cookie } });
    const second = await response.text();
    expect(fieldOf(second, 'csrf')).not.toBe(first.form.csrf);
    expect(fieldOf(second, 'request')).not.toBe(first.form.request);
  });

  it('ignores parameters it does not know (RFC 6749 section 3.1)', async () => {
    await openSignIn({ nonce: 'n-0S6_WzA2Mj', prompt: 'login' });
  });

  it("uses the client's only redirect URI when the request names none (RFC 6749 section 3.1.2.3)", async () => {
    const client = await registerClient({ client_id: `single-${randomUUID().slice(0, 8)}` });
    const { form } = await openSignIn({ client_id: client.client_id, redirect_uri: null });
    expect(await requests.get(form.request)).toMatchObject({
      redirect_uri: 'https://app.example.org/callback',
      redirect_uri_given: false,
    });
  });
});

describe('GET /api/sso/authorize: never redirected to (RFC 6749 section 4.1.2.1, RFC 9700 section 4.1)', () => {
  it.each([
    ['an unknown client', { client_id: 'no-such-client' }],
    ['no client_id', { client_id: null }],
    ['client_id twice', 'client_id'],
    ['no redirect_uri, with two registered', { redirect_uri: null }],
    ['an unregistered redirect_uri', { redirect_uri: 'https://attacker.example/callback' }],
    ['a redirect_uri with another path', { redirect_uri: 'http://127.0.0.1:8976/callback/../evil' }],
    ['a redirect_uri with a trailing slash', { redirect_uri: 'http://127.0.0.1:8976/callback/' }],
    ['a redirect_uri with another case', { redirect_uri: 'http://127.0.0.1:8976/Callback' }],
    ['a redirect_uri with a query added', { redirect_uri: 'http://127.0.0.1:8976/callback?next=x' }],
    ['redirect_uri twice', 'redirect_uri'],
  ] as const)('%s: a 400 page, no Location, nothing stored', async (_, params) => {
    const before = await itemsIn(keys.authorizationRequestPartition);
    const url =
      typeof params === 'string'
        ? `${authorizeUrl(api.url)}&${params}=${encodeURIComponent(params === 'client_id' ? DEMO_APP_ID : REDIRECT_URI)}`
        : authorizeUrl(api.url, params);
    const response = await fetch(url, { redirect: 'manual' });
    const html = await response.text();
    expect(response.status, html).toBe(400);
    expect(response.headers.get('location')).toBeNull();
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expectPageHeaders(response.headers);
    expect(response.headers.getSetCookie()).toEqual([]);
    expect(html).toContain('This sign-in link does not work');
    expect(html).not.toContain('attacker.example');
    expect(await itemsIn(keys.authorizationRequestPartition)).toBe(before);
  });

  it("speaks the page's language and names the school: Portuguese by ui_locales or Accept-Language", async () => {
    const school = 'Demo School (Agrupamento de Escolas Demo)';
    const unknown = authorizeUrl(api.url, { client_id: 'no-such-client' });
    for (const [url, headers] of [
      [unknown, { 'accept-language': 'pt-PT,pt;q=0.9,en;q=0.5' }],
      [`${unknown}&ui_locales=pt-BR`, { 'accept-language': 'en' }],
    ] as const) {
      const response = await fetch(url, { redirect: 'manual', headers });
      const html = await response.text();
      expect(response.status).toBe(400);
      expect(html).toContain('<html lang="pt">');
      expect(html).toContain(`<title>Esta ligação para iniciar sessão não funciona – ${school}</title>`);
      expect(html).toContain('não é uma em que esta escola deixe iniciar sessão');
      expect(html).not.toContain('This sign-in link');
    }
    const english = await fetch(unknown, { redirect: 'manual' });
    expect(await english.text()).toContain(`<title>This sign-in link does not work – ${school}</title>`);

    // Logout's refusals speak the request's language too.
    const logout = await fetch(`${api.url}/api/sso/logout?id_token_hint=forged&ui_locales=pt`);
    expect(logout.status).toBe(400);
    expect(await logout.text()).toContain('A aplicação enviou um token de ID que esta escola não emitiu.');
  });

  it('refuses a client with no redirect URI registered', async () => {
    const client = await registerClient({ redirect_uris: [] });
    const response = await fetch(authorizeUrl(api.url, { client_id: client.client_id, redirect_uri: null }), {
      redirect: 'manual',
    });
    expect(response.status).toBe(400);
    expect(response.headers.get('location')).toBeNull();
    await response.body?.cancel();
  });

  it('refuses a revoked client and a client without the authorization_code grant the same way', async () => {
    const revoked = await registerClient({ status: 'revoked' });
    const machine = await registerClient({ grant_types: ['client_credentials'] });
    for (const client of [revoked, machine]) {
      const url = authorizeUrl(api.url, {
        client_id: client.client_id,
        redirect_uri: 'https://app.example.org/callback',
      });
      const response = await fetch(url, { redirect: 'manual' });
      expect(response.status).toBe(400);
      expect(response.headers.get('location')).toBeNull();
      await response.body?.cancel();
    }
  });
});

describe('GET /api/sso/authorize: errors sent back to the client (RFC 6749 section 4.1.2.1, RFC 7636 section 4.4.1)', () => {
  it.each([
    ['no response_type', { response_type: null }, 'invalid_request'],
    ['response_type=token (the implicit grant)', { response_type: 'token' }, 'unsupported_response_type'],
    ['no code_challenge', { code_challenge: null }, 'invalid_request'],
    ['code_challenge_method=plain (a PKCE downgrade)', { code_challenge_method: 'plain' }, 'invalid_request'],
    ['no code_challenge_method (plain by default)', { code_challenge_method: null }, 'invalid_request'],
    ['a code_challenge too short', { code_challenge: 'abc' }, 'invalid_request'],
    [
      'a code_challenge with a character out of range',
      { code_challenge: `${'a'.repeat(42)}+` },
      'invalid_request',
    ],
    ['an unknown scope', { scope: 'students:read grades:read' }, 'invalid_scope'],
  ] as const)('%s: 302 with %s, state and iss', async (_, params, error) => {
    const before = await itemsIn(keys.authorizationRequestPartition);
    const response = await fetch(authorizeUrl(api.url, { ...params, state: 'af0ifjsldkj' }), {
      redirect: 'manual',
    });
    expect(response.status).toBe(302);
    expectPageHeaders(response.headers);
    const location = response.headers.get('location') as string;
    expect(location.startsWith(`${REDIRECT_URI}?`)).toBe(true);
    const sent = paramsOf(location);
    expect(sent).toEqual({
      error,
      error_description: expect.any(String),
      state: 'af0ifjsldkj',
      iss: issuer(),
    });
    // RFC 6749 section 4.1.2.1: the description is printable ASCII without " and \.
    expect(sent.error_description).toMatch(/^[\x20\x21\x23-\x5B\x5D-\x7E]+$/);
    expect(response.headers.getSetCookie()).toEqual([]);
    expect(await response.text()).toBe('');
    expect(await itemsIn(keys.authorizationRequestPartition)).toBe(before);
  });

  it('refuses a scope the client is not registered for (invalid_scope)', async () => {
    const client = await registerClient({ scopes: ['students:read'] });
    const url = authorizeUrl(api.url, {
      client_id: client.client_id,
      redirect_uri: 'https://app.example.org/callback',
      scope: 'students:read teachers:read',
    });
    const response = await fetch(url, { redirect: 'manual' });
    expect(paramsOf(response.headers.get('location') as string).error).toBe('invalid_scope');
  });

  it("returns no state when state is given twice, and keeps the redirect URI's own query (RFC 6749 section 3.1.2)", async () => {
    const client = await registerClient({ redirect_uris: ['https://app.example.org/cb?tenant=a%20b'] });
    const url = `${authorizeUrl(api.url, { client_id: client.client_id, redirect_uri: 'https://app.example.org/cb?tenant=a%20b' })}&state=again`;
    const response = await fetch(url, { redirect: 'manual' });
    const location = response.headers.get('location') as string;
    expect(location.startsWith('https://app.example.org/cb?tenant=a%20b&error=invalid_request&')).toBe(true);
    expect(paramsOf(location)).toEqual({
      tenant: 'a b',
      error: 'invalid_request',
      error_description: 'state is given more than once.',
      iss: issuer(),
    });
  });
});

describe('POST /api/sso/authorize: signing in (RFC 6749 section 4.1.2)', () => {
  it('sends the guardian back with a code, the same state and iss; the code is single-use and lasts 60 s', async () => {
    const { challenge } = pkce();
    const before = Date.now();
    const { page, answer } = await signIn('guardian', DEMO_USER_PASSWORD, newAddress(), {
      code_challenge: challenge,
      state: 'S8NJ7uqk5fY4EjNvP_G_FtyJu6pUsvH9jsYni9dMAJw',
    });
    expect(answer.status, answer.body).toBe(303);
    expectPageHeaders(answer.headers);
    expect(answer.body).toBe('');
    const location = String(answer.headers.location);
    expect(location.startsWith(`${REDIRECT_URI}?code=`)).toBe(true);
    const { code, ...rest } = paramsOf(location);
    expect(rest).toEqual({ state: 'S8NJ7uqk5fY4EjNvP_G_FtyJu6pUsvH9jsYni9dMAJw', iss: issuer() });
    expect(code).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const guardian = await api.users.byLogin('guardian');
    const first = await codes.redeem(opaqueTokenHash(code as string));
    expect(first.outcome).toBe('redeemed');
    if (first.outcome !== 'redeemed') return;
    expect(first.code).toMatchObject({
      client_id: DEMO_APP_ID,
      redirect_uri: REDIRECT_URI,
      redirect_uri_given: true,
      code_challenge: challenge,
      user_id: guardian?.user_id,
      entity_id: guardian?.entity_id,
      roles: ['tutor'],
      scopes: [
        'students:read',
        'tutors:read',
        'academic_sessions:read',
        'courses:read',
        'classes:read',
        'enrollments:read',
        'gradebook:read',
        'attendance:read',
        'assessment:read',
        'students:read:sensitive',
        'tutors:read:sensitive',
      ],
    });
    expect(first.code.family_id).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    const expires = Date.parse(first.code.expires_at);
    expect(expires).toBeGreaterThan(before);
    expect(expires).toBeLessThanOrEqual(Date.now() + 60_000);
    expect((await codes.redeem(opaqueTokenHash(code as string))).outcome).toBe('reused');
    expect(await requests.get(page.form.request)).toBeUndefined();
  });

  it('signs in with the e-mail address as well as the username, in any case', async () => {
    const guardian = api.demoUsers.find((u) => u.username === 'guardian');
    const { answer } = await signIn(String(guardian?.email).toUpperCase(), DEMO_USER_PASSWORD, newAddress());
    expect(answer.status, answer.body).toBe(303);
    const redemption = await codes.redeem(
      opaqueTokenHash(paramsOf(String(answer.headers.location)).code as string),
    );
    expect(redemption.outcome === 'redeemed' && redemption.code.entity_id).toBe(guardian?.entity_id);
  });

  it('gives each sign-in its own refresh family', async () => {
    const families = [];
    for (let i = 0; i < 2; i++) {
      const { answer } = await signIn('guardian', DEMO_USER_PASSWORD, newAddress());
      const redemption = await codes.redeem(
        opaqueTokenHash(paramsOf(String(answer.headers.location)).code as string),
      );
      families.push(redemption.outcome === 'redeemed' ? redemption.code.family_id : undefined);
    }
    expect(new Set(families).size).toBe(2);
  });

  it("narrows the scopes asked for to those the person's roles grant", async () => {
    const { answer } = await signIn('guardian', DEMO_USER_PASSWORD, newAddress(), {
      scope: 'students:read teachers:read',
    });
    const redemption = await codes.redeem(
      opaqueTokenHash(paramsOf(String(answer.headers.location)).code as string),
    );
    expect(redemption.outcome === 'redeemed' && redemption.code.scopes).toEqual(['students:read']);
  });

  it('answers access_denied when the roles grant none of the scopes asked for (RFC 6749 section 4.1.2.1)', async () => {
    const before = await itemsIn(keys.authorizationCodePartition);
    const { answer } = await signIn('guardian', DEMO_USER_PASSWORD, newAddress(), {
      scope: 'teachers:read',
      state: 'st',
    });
    expect(answer.status).toBe(303);
    expect(paramsOf(String(answer.headers.location))).toEqual({
      error: 'access_denied',
      error_description: expect.any(String),
      state: 'st',
      iss: issuer(),
    });
    expect(await itemsIn(keys.authorizationCodePartition)).toBe(before);
  });

  it('refuses a replayed form once it has signed in, and issues nothing more', async () => {
    const from = newAddress();
    const { page, answer } = await signIn('guardian', DEMO_USER_PASSWORD, from);
    expect(answer.status).toBe(303);
    const before = await itemsIn(keys.authorizationCodePartition);
    const replay = await post(
      { ...page.form, username: 'guardian', password: DEMO_USER_PASSWORD },
      { from, cookie: page.cookie },
    );
    expect(replay.status).toBe(400);
    expect(replay.headers.location).toBeUndefined();
    expect(replay.body).toContain('This sign-in has ended');
    expect(await itemsIn(keys.authorizationCodePartition)).toBe(before);
  });

  it('shows the form again after a wrong password, and the same form then signs in', async () => {
    const from = newAddress();
    const page = await openSignIn();
    const wrong = await post(
      { ...page.form, username: 'teacher', password: 'not-it' },
      { from, cookie: page.cookie },
    );
    expect(wrong.status).toBe(400);
    expectPageHeaders(wrong.headers);
    expect(wrong.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(wrong.body).toContain('role="alert"');
    expect(fieldOf(wrong.body, 'username')).toBe('teacher');
    expect(fieldOf(wrong.body, 'password')).toBeUndefined();
    expect(fieldOf(wrong.body, 'request')).toBe(page.form.request);
    const right = await post(
      { ...page.form, username: 'teacher', password: DEMO_USER_PASSWORD },
      { from, cookie: page.cookie },
    );
    expect(right.status).toBe(303);
    expect(paramsOf(String(right.headers.location)).code).toBeDefined();
  });

  it('escapes what it shows: a name with markup in it comes back as text', async () => {
    const page = await openSignIn();
    const name = '"><script>alert(1)</script>';
    const answer = await post(
      { ...page.form, username: name, password: 'x' },
      { from: newAddress(), cookie: page.cookie },
    );
    expect(answer.status).toBe(400);
    expect(answer.body).not.toContain('<script>');
    expect(answer.body).toContain('value="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"');
  });
});

describe('POST /api/sso/authorize: cross-site request forgery (RFC 6749 section 10.12, RFC 9700 section 4.7)', () => {
  it.each([
    ['no cookie', (p: Page) => ({ fields: p.form, cookie: undefined })],
    ['no csrf field', (p: Page) => ({ fields: { request: p.form.request }, cookie: p.cookie })],
    [
      'a csrf field that is not the cookie',
      (p: Page) => ({ fields: { ...p.form, csrf: 'A'.repeat(43) }, cookie: p.cookie }),
    ],
    [
      'a cookie that is not the csrf field',
      (p: Page) => ({ fields: p.form, cookie: `sso_csrf=${'A'.repeat(43)}` }),
    ],
    [
      "an attacker's own matching pair with the victim's request",
      (p: Page, other: Page) => ({
        fields: { ...other.form, request: p.form.request },
        cookie: other.cookie,
      }),
    ],
  ] as const)('%s: 403, nothing issued, the form still good', async (_, forge) => {
    const from = newAddress();
    const page = await openSignIn();
    const attacker = await openSignIn();
    const { fields, cookie } = forge(page, attacker);
    const before = await itemsIn(keys.authorizationCodePartition);
    const answer = await post(
      { ...fields, username: 'guardian', password: DEMO_USER_PASSWORD },
      { from, ...(cookie ? { cookie } : {}) },
    );
    expect(answer.status, answer.body).toBe(403);
    expect(answer.headers.location).toBeUndefined();
    expectPageHeaders(answer.headers);
    expect(await itemsIn(keys.authorizationCodePartition)).toBe(before);
    expect(await requests.get(page.form.request)).toBeDefined();
  });

  it.each([
    ['another origin', 'https://attacker.example'],
    ['an opaque origin', 'null'],
  ])('refuses a form posted from %s (403)', async (_, origin) => {
    const page = await openSignIn();
    const before = await itemsIn(keys.authorizationCodePartition);
    const answer = await post(
      { ...page.form, username: 'guardian', password: DEMO_USER_PASSWORD },
      { from: newAddress(), cookie: page.cookie, origin },
    );
    expect(answer.status).toBe(403);
    expect(await itemsIn(keys.authorizationCodePartition)).toBe(before);
  });

  it('refuses an origin with the right host and port but another scheme, or more than an origin (403)', async () => {
    const { host, port } = new URL(api.url);
    const local = `localhost:${port}`;
    const cases = [
      { origin: `https://${host}` },
      { origin: `https://${local}`, host: local },
      { origin: `ws://${host}` },
      { origin: `${api.url}/` },
      { origin: `http://user@${host}` },
    ];
    const page = await openSignIn();
    const before = await itemsIn(keys.authorizationCodePartition);
    for (const { origin, host: sentHost } of cases) {
      const answer = await post(
        { ...page.form, username: 'guardian', password: DEMO_USER_PASSWORD },
        { from: newAddress(), cookie: page.cookie, origin, ...(sentHost ? { host: sentHost } : {}) },
      );
      expect(answer.status, origin).toBe(403);
    }
    expect(await itemsIn(keys.authorizationCodePartition)).toBe(before);
    expect(await requests.get(page.form.request)).toBeDefined();
  });

  it('takes a form from the host the browser reached, when that is not the base address (localhost)', async () => {
    const page = await openSignIn();
    const host = `localhost:${new URL(api.url).port}`;
    const answer = await post(
      { ...page.form, username: 'guardian', password: DEMO_USER_PASSWORD },
      { from: newAddress(), cookie: page.cookie, origin: `http://${host}`, host },
    );
    expect(answer.status).toBe(303);
    const elsewhere = await post(
      { ...page.form, username: 'guardian', password: DEMO_USER_PASSWORD },
      { from: newAddress(), cookie: page.cookie, origin: 'http://attacker.example', host },
    );
    expect(elsewhere.status).toBe(403);
  });

  it('refuses a form with neither Origin nor Referer, and takes one whose Referer is its own page', async () => {
    const page = await openSignIn();
    const fields = { ...page.form, username: 'guardian', password: DEMO_USER_PASSWORD };
    const bare = await post(fields, { from: newAddress(), cookie: page.cookie, origin: null });
    expect(bare.status).toBe(403);
    const foreign = await post(fields, {
      from: newAddress(),
      cookie: page.cookie,
      origin: null,
      referer: 'https://attacker.example/api/sso/authorize',
    });
    expect(foreign.status).toBe(403);
    const unreadable = await post(fields, {
      from: newAddress(),
      cookie: page.cookie,
      origin: null,
      referer: '::',
    });
    expect(unreadable.status).toBe(403);
    expect(await requests.get(page.form.request)).toBeDefined();
    const own = await post(fields, {
      from: newAddress(),
      cookie: page.cookie,
      origin: null,
      referer: authorizeUrl(api.url),
    });
    expect(own.status).toBe(303);
  });

  it('refuses a planted CSRF cookie: the page never adopts it, so a form naming it does not match', async () => {
    const planted = `sso_csrf=${'A'.repeat(43)}`;
    const response = await fetch(authorizeUrl(api.url), { headers: { cookie: planted } });
    const html = await response.text();
    const form = { request: fieldOf(html, 'request') as string, csrf: fieldOf(html, 'csrf') as string };
    expect(form.csrf).not.toBe('A'.repeat(43));
    expect(csrfCookieFrom(response.headers.getSetCookie())).toBe(`sso_csrf=${form.csrf}`);
    const answer = await post(
      { ...form, csrf: 'A'.repeat(43), username: 'guardian', password: DEMO_USER_PASSWORD },
      { from: newAddress(), cookie: planted },
    );
    expect(answer.status).toBe(403);
    expect(await requests.get(form.request)).toBeDefined();
  });

  it('never answers bad input with a 500: no form, too large, a field twice, a bad request id, odd names', async () => {
    const page = await openSignIn();
    const from = newAddress();
    const fields = { ...page.form, username: 'guardian', password: DEMO_USER_PASSWORD };
    const json = await post(JSON.stringify(fields), {
      from,
      cookie: page.cookie,
      contentType: 'application/json',
    });
    expect(json.status).toBe(415);
    const large = await post({ ...fields, username: 'x'.repeat(9000) }, { from, cookie: page.cookie });
    expect(large.status).toBe(413);
    const twice = await post(`${new URLSearchParams(fields)}&password=other`, { from, cookie: page.cookie });
    expect(twice.status).toBe(400);
    const badId = await post({ ...fields, request: 'x'.repeat(2000) }, { from, cookie: page.cookie });
    expect(badId.status).toBe(400);
    const longName = await post({ ...fields, username: 'ﷺ'.repeat(300) }, { from, cookie: page.cookie });
    expect(longName.status).toBe(400);
    const blankName = await post({ ...fields, username: ' \u3000 ' }, { from, cookie: page.cookie });
    expect(blankName.status).toBe(400);
    for (const answer of [json, large, twice, badId, longName, blankName]) {
      expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
      expectPageHeaders(answer.headers);
    }
    expect(await requests.get(page.form.request)).toBeDefined();
  });
});

type Page = Awaited<ReturnType<typeof openSignIn>>;

describe('POST /api/sso/authorize: slowing and locking out (RFC 9700 section 4.16, issues 3 and 16)', () => {
  /** Fails `times` times in a row with one name from one address, on one page. */
  async function failRepeatedly(username: string, times: number, from: string) {
    const page = await openSignIn();
    const answers: Answer[] = [];
    for (let i = 0; i < times; i++) {
      answers.push(
        await post({ ...page.form, username, password: `wrong-${i}` }, { from, cookie: page.cookie }),
      );
    }
    return { page, answers };
  }

  /** A new account with a username and an e-mail address, signing in with the demo password. */
  async function newAccount(): Promise<User & { email: string }> {
    const guardian = await api.users.byLogin('guardian');
    const username = `burst-${randomUUID().slice(0, 8)}`;
    const now = new Date().toISOString();
    const user = {
      user_id: randomUUID(),
      username,
      email: `${username}@escola.example`,
      password_hash: await hashSecret(DEMO_USER_PASSWORD),
      status: 'active' as const,
      entity_id: guardian?.entity_id as string,
      admin: false,
      created_at: now,
      updated_at: now,
    };
    await api.users.create(user);
    return user;
  }

  /** The attempts a subject's counter holds against it now. */
  async function countedFor(subject: string, limit: number = SIGN_IN_LIMITS.accountFailures) {
    const state = await throttle.get(subject);
    return state ? countedAttempts(state, limit) : 0;
  }

  function expectLocked(answer: Answer) {
    expect(answer.status).toBe(429);
    const retryAfter = Number(answer.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(900);
    expectPageHeaders(answer.headers);
    expect(answer.body).toContain('Too many failed sign-ins.');
  }

  it('slows each failure, locks the account after 5 (429, Retry-After) by any of its names, and answers an unknown name identically', async () => {
    const unknown = `nobody-${randomUUID().slice(0, 8)}`;
    const [known, stranger] = await Promise.all([
      failRepeatedly('staff', 5, newAddress()),
      failRepeatedly(unknown, 5, newAddress()),
    ]);
    for (const { answers } of [known, stranger]) {
      expect(answers.map((a) => a.status)).toEqual([400, 400, 400, 400, 400]);
      // The k-th attempt waits 250 ms for each failure before it.
      for (const [k, answer] of answers.entries()) expect(answer.ms).toBeGreaterThanOrEqual(250 * k - 10);
    }
    expect(withoutSpecifics((known.answers[4] as Answer).body)).toBe(
      withoutSpecifics((stranger.answers[4] as Answer).body),
    );

    // Locked now, even with the right password; the same page for a name no account has.
    const from = newAddress();
    const lockedKnown = await post(
      { ...known.page.form, username: 'staff', password: DEMO_USER_PASSWORD },
      { from, cookie: known.page.cookie },
    );
    const lockedStranger = await post(
      { ...stranger.page.form, username: unknown, password: DEMO_USER_PASSWORD },
      { from, cookie: stranger.page.cookie },
    );
    for (const locked of [lockedKnown, lockedStranger]) {
      expectLocked(locked);
      // Locked for 15 minutes from the fifth failure, a few seconds ago.
      expect(Number(locked.headers['retry-after'])).toBeGreaterThan(840);
      expect(locked.body).toContain('Try again in 15 minutes.');
    }
    expect(withoutSpecifics(lockedKnown.body)).toBe(withoutSpecifics(lockedStranger.body));
    // The account is locked however its name is written (loginName), and by its e-mail address too.
    const email = api.demoUsers.find((u) => u.username === 'staff')?.email as string;
    for (const username of [' STAFF ', email, email.toUpperCase()]) {
      const answer = await post(
        { ...known.page.form, username, password: DEMO_USER_PASSWORD },
        { from, cookie: known.page.cookie },
      );
      expectLocked(answer);
    }
  });

  it('checks at most 5 passwords of 50 guesses sent at once by username and by e-mail, then refuses the right one by either', async () => {
    const account = await newAccount();
    const from = newAddress();
    const page = await openSignIn();
    const guesses = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        post(
          { ...page.form, username: i % 2 === 0 ? account.username : account.email, password: `guess-${i}` },
          { from, cookie: page.cookie },
        ),
      ),
    );
    const statuses = guesses.map((a) => a.status);
    expect(statuses.filter((status) => status === 400)).toHaveLength(SIGN_IN_LIMITS.accountFailures);
    expect(statuses.filter((status) => status === 429)).toHaveLength(50 - SIGN_IN_LIMITS.accountFailures);
    const right = [];
    for (const username of [account.username, account.email]) {
      right.push(
        await post({ ...page.form, username, password: DEMO_USER_PASSWORD }, { from, cookie: page.cookie }),
      );
    }
    for (const answer of [...guesses, ...right].filter((a) => a.status !== 400)) expectLocked(answer);
    expect(await countedFor(accountThrottleSubject(account.user_id))).toBe(SIGN_IN_LIMITS.accountFailures);
    // Only the checked guesses count against the address; nothing signed in.
    expect(await countedFor(addressThrottleSubject(from), SIGN_IN_LIMITS.addressFailures)).toBe(
      SIGN_IN_LIMITS.accountFailures,
    );
    expect(await requests.get(page.form.request)).toBeDefined();
  });

  it('checks at most 5 passwords of 50 guesses sent at once for a name no account has', async () => {
    const name = `nobody-${randomUUID().slice(0, 8)}`;
    const page = await openSignIn();
    const from = newAddress();
    const guesses = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        post({ ...page.form, username: name, password: `guess-${i}` }, { from, cookie: page.cookie }),
      ),
    );
    const statuses = guesses.map((a) => a.status);
    expect(statuses.filter((status) => status === 400)).toHaveLength(SIGN_IN_LIMITS.accountFailures);
    for (const answer of guesses.filter((a) => a.status !== 400)) expectLocked(answer);
    expect(await countedFor(nameThrottleSubject(name))).toBe(SIGN_IN_LIMITS.accountFailures);
  });

  it('never asks an attempt to wait longer than a lock lasts, when it started just before the lock', async () => {
    const gate = new SignInThrottle(throttle);
    const subject = nameThrottleSubject(`clock-${randomUUID().slice(0, 8)}`);
    const from = `198.51.100.${Math.floor(Math.random() * 250) + 1}`;
    const locked = new Date();
    for (let i = 0; i < SIGN_IN_LIMITS.accountFailures; i++) {
      expect((await gate.admit(subject, from, locked)).admitted).toBe(true);
    }
    // An attempt whose clock read a few milliseconds before the one that locked, answered after it.
    const earlier = await gate.admit(subject, from, new Date(locked.getTime() - 5));
    expect(earlier).toEqual({ admitted: false, retryAfterSeconds: SIGN_IN_LIMITS.lockMs / 1000 });
  });

  it('answers a disabled and an admin-locked account as it answers a wrong password', async () => {
    const guardian = await api.users.byLogin('guardian');
    const passwordHash = await hashSecret(DEMO_USER_PASSWORD);
    const bodies: string[] = [];
    for (const status of ['disabled', 'locked'] as const) {
      const username = `${status}-${randomUUID().slice(0, 8)}`;
      await api.users.create({
        user_id: randomUUID(),
        username,
        password_hash: passwordHash,
        status,
        entity_id: guardian?.entity_id as string,
        admin: false,
        created_at: new Date().toISOString(),
        updated_at: new Date().toISOString(),
      });
      const { answer } = await signIn(username, DEMO_USER_PASSWORD, newAddress());
      expect(answer.status).toBe(400);
      bodies.push(withoutSpecifics(answer.body));
    }
    const { answer: wrong } = await signIn('guardian', 'wrong-password', newAddress());
    expect(bodies).toEqual([withoutSpecifics(wrong.body), withoutSpecifics(wrong.body)]);
  });

  it('locks an address after 100 failures counted at once, whatever the names; other addresses still sign in', async () => {
    const from = newAddress();
    const clock = new SignInThrottle(throttle);
    const spray = `spray-${randomUUID().slice(0, 8)}`;
    // 99 wrong guesses at once, each for another name, counted as the form counts them; the passwords
    // are left out, since checking 99 of them at once is all CPU and proves nothing about counting.
    const gates = await Promise.all(
      Array.from({ length: SIGN_IN_LIMITS.addressFailures - 1 }, (_, i) =>
        clock.admit(nameThrottleSubject(`${spray}-${i}`), from),
      ),
    );
    expect(gates.filter((gate) => gate.admitted)).toHaveLength(SIGN_IN_LIMITS.addressFailures - 1);
    const page = await openSignIn();
    const hundredth = await post(
      { ...page.form, username: spray, password: 'Summer2026!' },
      { from, cookie: page.cookie },
    );
    expect(hundredth.status).toBe(400);
    expect(await countedFor(addressThrottleSubject(from), SIGN_IN_LIMITS.addressFailures)).toBe(
      SIGN_IN_LIMITS.addressFailures,
    );
    const locked = await post(
      { ...page.form, username: 'guardian', password: DEMO_USER_PASSWORD },
      { from, cookie: page.cookie },
    );
    expectLocked(locked);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(840);
    const elsewhere = await post(
      { ...page.form, username: 'guardian', password: DEMO_USER_PASSWORD },
      { from: newAddress(), cookie: page.cookie },
    );
    expect(elsewhere.status).toBe(303);
  }, 120_000);

  it('forgets attempts once their 15-minute window is over, and unlocks 15 minutes after locking (clock given)', async () => {
    const clock = new SignInThrottle(throttle);
    const subject = nameThrottleSubject(`clock-${randomUUID().slice(0, 8)}`);
    const address = '192.0.2.1';
    const start = Date.parse('2030-01-01T00:00:00Z');
    const at = (minutes: number) => new Date(start + minutes * 60_000);
    for (let minute = 0; minute < 4; minute++) {
      expect(await clock.admit(subject, address, at(minute))).toMatchObject({
        admitted: true,
        delayMs: 250 * minute,
      });
    }
    expect(await clock.admit(subject, address, at(15.1))).toMatchObject({ admitted: true, delayMs: 0 });
    expect(await throttle.get(subject)).toEqual({
      attempts: 1,
      allowed: 5,
      window_started: at(15.1).toISOString(),
    });
    for (let i = 0; i < 4; i++) await clock.admit(subject, address, at(16));
    expect(await throttle.get(subject)).toMatchObject({ attempts: 5, locked_until: at(31).toISOString() });
    expect(await clock.admit(subject, address, at(17))).toEqual({ admitted: false, retryAfterSeconds: 840 });
    expect(await clock.admit(subject, address, at(30.9))).toMatchObject({ admitted: false });
    expect(await clock.admit(subject, address, at(31.1))).toMatchObject({ admitted: true, delayMs: 0 });
  });

  it('forgives on a success only the attempts counted up to it, in whatever order the answers come (clock given)', async () => {
    const clock = new SignInThrottle(throttle);
    const subject = nameThrottleSubject(`forgive-${randomUUID().slice(0, 8)}`);
    const now = new Date('2030-02-01T00:00:00Z');
    const counted = () => countedFor(subject);
    const admit = async () => {
      const gate = await clock.admit(subject, '192.0.2.2', now);
      if (!gate.admitted) throw new Error('the attempt was refused');
      return gate.ticket;
    };
    const first = await admit();
    const second = await admit();
    await admit();
    await clock.succeeded(second);
    expect(await counted()).toBe(1);
    // The first attempt's success answers late: the second's has forgiven it already, and no more.
    await clock.succeeded(first);
    expect(await counted()).toBe(1);
    const later = [await admit(), await admit(), await admit(), await admit()];
    expect(await counted()).toBe(5);
    expect(await clock.admit(subject, '192.0.2.2', now)).toMatchObject({ admitted: false });
    // The fifth attempt succeeds: the two counted after it still count, and the lock is lifted.
    await clock.succeeded(later[1] as Ticket);
    expect(await counted()).toBe(2);
    expect((await throttle.get(subject))?.locked_until).toBeUndefined();
    expect(await clock.admit(subject, '192.0.2.2', now)).toMatchObject({ admitted: true, delayMs: 500 });
  });

  it('counts wrong TOTP codes against the account: password and wrong code cycles end in 429', async () => {
    const account = await newAccount();
    const secret = base32Encode(randomBytes(20));
    await api.users.update(account.user_id, { totp_secret: secret });
    const from = newAddress();
    const wrongCode = () => {
      const right = totp(base32Decode(secret), Date.now() / 1000);
      return right === '000000' ? '111111' : '000000';
    };
    const statuses: number[] = [];
    let last: Answer | undefined;
    for (let cycle = 0; cycle < 3; cycle++) {
      const page = await openSignIn();
      const password = await post(
        { ...page.form, username: account.username, password: DEMO_USER_PASSWORD },
        { from, cookie: page.cookie },
      );
      last = await post({ ...page.form, otp: wrongCode() }, { from, cookie: page.cookie });
      statuses.push(password.status, last.status);
    }
    // Five attempts (three right passwords, two wrong codes) lock the account; the third code is refused.
    expect(statuses).toEqual([200, 400, 200, 400, 200, 429]);
    expectLocked(last as Answer);
    // The right password and the right code are refused now too, and nothing forgave the account.
    const page = await openSignIn();
    const right = await post(
      { ...page.form, username: account.username, password: DEMO_USER_PASSWORD },
      { from: newAddress(), cookie: page.cookie },
    );
    expectLocked(right);
    expect(await countedFor(accountThrottleSubject(account.user_id))).toBe(SIGN_IN_LIMITS.accountFailures);
    // The right passwords gave their attempts back to the address: only the wrong codes count there.
    expect(await countedFor(addressThrottleSubject(from), SIGN_IN_LIMITS.addressFailures)).toBe(2);
  });

  it('forgives the account only once the code is right too', async () => {
    const account = await newAccount();
    const secret = base32Encode(randomBytes(20));
    await api.users.update(account.user_id, { totp_secret: secret });
    const from = newAddress();
    const subject = accountThrottleSubject(account.user_id);
    const page = await openSignIn();
    const password = await post(
      { ...page.form, username: account.username, password: DEMO_USER_PASSWORD },
      { from, cookie: page.cookie },
    );
    expect(password.status).toBe(200);
    expect(await countedFor(subject)).toBe(1);
    const code = totp(base32Decode(secret), Date.now() / 1000);
    const signedIn = await post({ ...page.form, otp: code }, { from, cookie: page.cookie });
    expect(signedIn.status).toBe(303);
    expect(await countedFor(subject)).toBe(0);
  });

  it("forgives the account's failures on a successful sign-in; the address keeps its own", async () => {
    const from = newAddress();
    const student = await api.users.byLogin('student');
    const subject = accountThrottleSubject(student?.user_id as string);
    const { page } = await failRepeatedly('student', 2, from);
    expect(await countedFor(subject)).toBe(2);
    const success = await post(
      { ...page.form, username: 'student', password: DEMO_USER_PASSWORD },
      { from, cookie: page.cookie },
    );
    expect(success.status).toBe(303);
    expect(await countedFor(subject)).toBe(0);
    expect(await countedFor(addressThrottleSubject(from), SIGN_IN_LIMITS.addressFailures)).toBe(2);
    // The next failure starts from nothing: it is the only one that counts, so nothing waits for it.
    const next = await failRepeatedly('student', 1, from);
    expect(next.answers[0]?.status).toBe(400);
    expect(await countedFor(subject)).toBe(1);
  });
});
