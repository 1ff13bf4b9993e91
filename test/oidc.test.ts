// OpenID Connect end to end with a stock relying party library (openid-client) over HTTP, for a public
// and a confidential client: discovery (Discovery 1.0 section 3, RFC 8414), the code flow with openid,
// a nonce and PKCE, the ID token validated by the library and again independently against the JWKS
// (Core 1.0 sections 2 and 3.1.3.7, at_hash per 3.1.3.6), userinfo (section 5.3, RFC 6750 errors),
// refresh (section 12.2), silent sign-in of a second client through the sign-on session, prompt and
// max_age (section 3.1.2.1), and RP-Initiated Logout 1.0.
import { createHash } from 'node:crypto';
import { createLocalJWKSet, decodeJwt, decodeProtectedHeader, jwtVerify } from 'jose';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEMO_APP_ID,
  DEMO_CLIENT_ID,
  DEMO_REDIRECT_URIS,
  demoPostLogoutUris,
} from '../infra/local/bootstrap';
import { DEMO_USER_PASSWORD } from '../infra/local/local-run';
import { CookieJar, completeSignIn, locationOf } from './support/sign-in-form';
import { DEMO_SECRET, startTestApi, type TestApi } from './support/test-api';

const redirectUri = DEMO_REDIRECT_URIS[0] as string;
const postLogoutUri = demoPostLogoutUris(DEMO_REDIRECT_URIS)[0] as string;
const teacher = { username: 'teacher', password: DEMO_USER_PASSWORD };

describe('OpenID Connect with openid-client', () => {
  let api: TestApi;
  let issuer: string;
  beforeAll(async () => {
    api = await startTestApi();
    issuer = `${api.url}/api/sso`;
  });
  afterAll(() => api.stop());

  const clients = [
    ['a public client', DEMO_APP_ID, () => oidc.None()],
    ['a confidential client', DEMO_CLIENT_ID, () => oidc.ClientSecretBasic(DEMO_SECRET)],
  ] as const;

  const discover = (clientId: string, auth: oidc.ClientAuth) =>
    oidc.discovery(new URL(issuer), clientId, undefined, auth, { execute: [oidc.allowInsecureRequests] });

  /** An authorization URL with fresh PKCE, state and nonce. */
  async function authorizationRequest(config: oidc.Configuration, extra: Record<string, string> = {}) {
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope: 'openid profile email roles',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      nonce,
      ...extra,
    });
    return { url, checks: { pkceCodeVerifier: verifier, expectedState: state, expectedNonce: nonce } };
  }

  /** The teacher signed in to the public client in a browser of its own: its cookies and its tokens. */
  async function teacherSignedIn() {
    const browser = new CookieJar();
    const config = await discover(DEMO_APP_ID, oidc.None());
    const a = await authorizationRequest(config);
    const tokens = await oidc.authorizationCodeGrant(
      config,
      await completeSignIn(a.url, teacher, browser),
      a.checks,
    );
    return { browser, config, tokens };
  }

  /**
   * A logout's answer: back at the registered post-logout URI with the state, the session cookie gone,
   * and the session item too, so a silent sign-in with the old cookie asks for a sign-in.
   */
  async function expectSignedOut(
    answer: Response,
    requested: URL | string,
    state: string,
    browser: CookieJar,
    config: oidc.Configuration,
  ) {
    expect(answer.status).toBe(303);
    const back = locationOf(answer, requested);
    expect(`${back.origin}${back.pathname}`).toBe(postLogoutUri);
    expect(back.searchParams.get('state')).toBe(state);
    expect(browser.has('sso_session')).toBe(false);
    const silent = await authorizationRequest(config, { prompt: 'none' });
    const after = await browser.fetch(silent.url);
    expect(locationOf(after, silent.url).searchParams.get('error')).toBe('login_required');
  }

  /** Logs the browser out with the ID token as hint, back to the registered address, and checks it is out. */
  async function logOutWithHint(browser: CookieJar, config: oidc.Configuration, idToken: string) {
    const state = oidc.randomState();
    const logout = oidc.buildEndSessionUrl(config, {
      id_token_hint: idToken,
      post_logout_redirect_uri: postLogoutUri,
      state,
    });
    await expectSignedOut(await browser.fetch(logout), logout, state, browser, config);
  }

  /** Verifies an ID token with nothing of openid-client: the JWKS, the claims, the access token's hash. */
  async function verifyIndependently(idToken: string, clientId: string, accessToken: string) {
    const jwks = (await (await fetch(`${issuer}/jwks`)).json()) as Parameters<typeof createLocalJWKSet>[0];
    const header = decodeProtectedHeader(idToken);
    expect(header.alg).toBe('ES256');
    expect(jwks.keys.map((k) => k.kid)).toContain(header.kid);
    const { payload } = await jwtVerify(idToken, createLocalJWKSet(jwks), {
      issuer,
      audience: clientId,
      algorithms: ['ES256'],
      requiredClaims: ['sub', 'exp', 'iat', 'auth_time', 'at_hash', 'amr', 'azp'],
    });
    const hash = createHash('sha256').update(accessToken).digest().subarray(0, 16).toString('base64url');
    expect(payload.at_hash).toBe(hash);
    expect(payload.azp).toBe(clientId);
    return payload;
  }

  it('publishes OpenID Connect discovery, the same at the RFC 8414 address', async () => {
    const openid = (await (await fetch(`${issuer}/.well-known/openid-configuration`)).json()) as Record<
      string,
      unknown
    >;
    const rfc8414 = await (await fetch(`${api.url}/.well-known/oauth-authorization-server/api/sso`)).json();
    expect(rfc8414).toEqual(openid);
    expect(openid).toMatchObject({
      issuer,
      userinfo_endpoint: `${issuer}/userinfo`,
      end_session_endpoint: `${issuer}/logout`,
      response_types_supported: ['code'],
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: ['ES256'],
      prompt_values_supported: ['none', 'login', 'consent', 'select_account'],
    });
    expect(openid.scopes_supported).toEqual(expect.arrayContaining(['openid', 'profile', 'email', 'roles']));
    expect(openid.claims_supported).toEqual(
      expect.arrayContaining(['sub', 'auth_time', 'nonce', 'at_hash', 'amr', 'name', 'email', 'roles']),
    );
  });

  it.each(clients)(
    '%s: ID token, userinfo and refresh, checked by the library and independently',
    async (_, clientId, auth) => {
      const config = await discover(clientId, auth());
      const before = Math.floor(Date.now() / 1000);
      const { url, checks } = await authorizationRequest(config);
      const callback = await completeSignIn(url, teacher);
      const tokens = await oidc.authorizationCodeGrant(config, callback, {
        ...checks,
        idTokenExpected: true,
      });
      const claims = tokens.claims();
      const account = await api.users.byLogin('teacher');
      expect(claims).toMatchObject({
        iss: issuer,
        sub: account?.entity_id,
        aud: clientId,
        nonce: checks.expectedNonce,
        amr: ['pwd'],
      });
      expect(claims?.auth_time).toBeGreaterThanOrEqual(before - 1);
      const independent = await verifyIndependently(tokens.id_token as string, clientId, tokens.access_token);
      expect(independent.sub).toBe(account?.entity_id);

      const info = await oidc.fetchUserInfo(config, tokens.access_token, claims?.sub as string);
      expect(info).toMatchObject({
        sub: account?.entity_id,
        preferred_username: 'teacher',
        roles: ['teacher'],
      });
      expect(typeof info.name).toBe('string');
      expect(info.email).toBe(account?.email);

      // /api/sso/me is unchanged for existing clients: its sub is still the account's user id.
      const me = (await (await api.get('/api/sso/me', { token: tokens.access_token })).json()) as {
        sub: string;
      };
      expect(me.sub).toBe(account?.user_id);

      const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token as string);
      const again = refreshed.claims();
      expect(again?.sub).toBe(claims?.sub);
      expect(again?.auth_time).toBe(claims?.auth_time);
      expect(again?.nonce).toBeUndefined();
      await verifyIndependently(refreshed.id_token as string, clientId, refreshed.access_token);
    },
  );

  it('signs a confidential client in without PKCE when it asks for openid with a nonce (RFC 9700 section 2.1.1)', async () => {
    const config = await discover(DEMO_CLIENT_ID, oidc.ClientSecretBasic(DEMO_SECRET));
    /** What a stock confidential-client library sends: state and nonce, no code_challenge. */
    const withoutPkce = (extra: Record<string, string> = {}) => {
      const state = oidc.randomState();
      const nonce = oidc.randomNonce();
      const params = { redirect_uri: redirectUri, scope: 'openid profile', state, nonce, ...extra };
      const url = oidc.buildAuthorizationUrl(config, params);
      return { url, checks: { expectedState: state, expectedNonce: nonce } };
    };
    const { url, checks } = withoutPkce();
    const tokens = await oidc.authorizationCodeGrant(config, await completeSignIn(url, teacher), {
      ...checks,
      idTokenExpected: true,
    });
    expect(tokens.claims()?.nonce).toBe(checks.expectedNonce);

    // A verifier sent for a code issued without a challenge is refused, and the code is used up.
    const injected = withoutPkce();
    await expect(
      oidc.authorizationCodeGrant(config, await completeSignIn(injected.url, teacher), {
        ...injected.checks,
        pkceCodeVerifier: oidc.randomPKCECodeVerifier(),
      }),
    ).rejects.toMatchObject({ error: 'invalid_grant' });

    // PKCE stays required without openid or without a nonce (an empty nonce is none: RFC 6749 section
    // 3.1), and for a public client; plain never passes.
    const publicConfig = await discover(DEMO_APP_ID, oidc.None());
    const cases: [oidc.Configuration, Record<string, string | undefined>][] = [
      [config, { scope: 'openid', nonce: undefined }],
      [config, { scope: 'openid', nonce: '' }],
      [config, { scope: 'students:read', nonce: oidc.randomNonce() }],
      [config, { code_challenge: 'a'.repeat(43), code_challenge_method: 'plain' }],
      [config, { code_challenge_method: 'S256' }],
      [publicConfig, {}],
    ];
    for (const [client, extra] of cases) {
      const params: Record<string, string> = {
        redirect_uri: redirectUri,
        scope: 'openid',
        state: oidc.randomState(),
        nonce: oidc.randomNonce(),
      };
      for (const [name, value] of Object.entries(extra)) {
        if (value === undefined) delete params[name];
        else params[name] = value;
      }
      const request = oidc.buildAuthorizationUrl(client, params);
      const answer = await fetch(request, { redirect: 'manual' });
      expect(answer.status, JSON.stringify(extra)).toBe(302);
      const back = locationOf(answer, request);
      expect(back.searchParams.get('error'), JSON.stringify(extra)).toBe('invalid_request');
      expect(back.searchParams.get('error_description')).toMatch(/code_challenge/);
    }
  });

  it('takes an empty nonce as none: the ID token carries no nonce claim', async () => {
    const config = await discover(DEMO_CLIENT_ID, oidc.ClientSecretBasic(DEMO_SECRET));
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope: 'openid profile',
      state,
      nonce: '',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    });
    expect(url.searchParams.get('nonce')).toBe('');
    const tokens = await oidc.authorizationCodeGrant(config, await completeSignIn(url, teacher), {
      pkceCodeVerifier: verifier,
      expectedState: state,
      idTokenExpected: true,
    });
    expect(tokens.claims()).not.toHaveProperty('nonce');
  });

  it('answers userinfo by POST too, and refuses with RFC 6750 challenges', async () => {
    const config = await discover(DEMO_APP_ID, oidc.None());
    const { url, checks } = await authorizationRequest(config, { scope: 'openid' });
    const tokens = await oidc.authorizationCodeGrant(config, await completeSignIn(url, teacher), checks);
    const posted = await fetch(`${issuer}/userinfo`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(posted.status).toBe(200);
    // openid alone releases sub and nothing else (Core 1.0 section 5.4).
    expect(Object.keys((await posted.json()) as object)).toEqual(['sub']);

    const none = await fetch(`${issuer}/userinfo`);
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toMatch(/^Bearer /);
    const forged = await fetch(`${issuer}/userinfo`, { headers: { authorization: 'Bearer abc.def.ghi' } });
    expect(forged.status).toBe(401);
    expect(forged.headers.get('www-authenticate')).toMatch(/error="invalid_token"/);
    const clientToken = await api.token();
    const machine = await fetch(`${issuer}/userinfo`, {
      headers: { authorization: `Bearer ${clientToken}` },
    });
    expect(machine.status).toBe(403);
    expect(machine.headers.get('www-authenticate')).toMatch(/error="insufficient_scope".*scope="openid"/);
  });

  it("honours at userinfo a token issued in the sign-out's own second, and refuses one from a second before", async () => {
    const config = await discover(DEMO_APP_ID, oidc.None());
    const { url, checks } = await authorizationRequest(config, { scope: 'openid' });
    // An account of its own: the sign-out set here lies a second ahead, after the teacher's next sign-ins.
    const student = { username: 'student', password: DEMO_USER_PASSWORD };
    const tokens = await oidc.authorizationCodeGrant(config, await completeSignIn(url, student), checks);
    const issuedAt = decodeJwt(tokens.access_token).iat as number;
    const account = await api.users.byLogin('student');
    const info = async (signedOut: number) => {
      await api.users.update(account?.user_id as string, {
        signed_out_at: new Date(signedOut).toISOString(),
      });
      return fetch(`${issuer}/userinfo`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
    };
    expect((await info(issuedAt * 1000 + 999)).status).toBe(200);
    expect((await info((issuedAt + 1) * 1000)).status).toBe(401);
  });

  it('signs a second application in through the session, without a password', async () => {
    const { browser, tokens: tokensA } = await teacherSignedIn();
    expect(browser.has('sso_session')).toBe(true);

    const second = await discover(DEMO_CLIENT_ID, oidc.ClientSecretBasic(DEMO_SECRET));
    const b = await authorizationRequest(second, { prompt: 'none' });
    const answer = await browser.fetch(b.url);
    expect(answer.status).toBe(302);
    const tokensB = await oidc.authorizationCodeGrant(second, locationOf(answer, b.url), b.checks);
    expect(tokensB.claims()?.sub).toBe(tokensA.claims()?.sub);
    expect(tokensB.claims()?.auth_time).toBe(tokensA.claims()?.auth_time);
    expect(tokensB.claims()?.aud).toBe(DEMO_CLIENT_ID);

    // A max_age already passed and prompt=login both ask for the password again, as a page; prompt=none
    // with a max_age passed answers login_required.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    for (const extra of [{ max_age: '0' }, { prompt: 'login' }] as Record<string, string>[]) {
      const c = await authorizationRequest(second, extra);
      const page = await browser.fetch(c.url);
      expect(page.status, JSON.stringify(extra)).toBe(200);
      expect(await page.text()).toContain('name="password"');
    }
    const stale = await authorizationRequest(second, { prompt: 'none', max_age: '0' });
    await expect(
      oidc.authorizationCodeGrant(
        second,
        locationOf(await browser.fetch(stale.url), stale.url),
        stale.checks,
      ),
    ).rejects.toMatchObject({ error: 'login_required' });
  });

  it('honours every prompt value it publishes, and an id_token_hint naming the person (Core 3.1.2.1)', async () => {
    const { browser, config, tokens: teacherTokens } = await teacherSignedIn();
    const other = await authorizationRequest(config);
    const guardianTokens = await oidc.authorizationCodeGrant(
      config,
      await completeSignIn(other.url, { username: 'guardian', password: DEMO_USER_PASSWORD }),
      other.checks,
    );

    // consent asks nothing: the session answers; select_account shows the page, where anyone may sign in.
    const consent = await authorizationRequest(config, { prompt: 'consent' });
    const silent = await browser.fetch(consent.url);
    expect(silent.status).toBe(302);
    expect(locationOf(silent, consent.url).searchParams.get('code')).not.toBeNull();
    const select = await authorizationRequest(config, { prompt: 'select_account' });
    const page = await browser.fetch(select.url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('name="password"');

    const hinted = async (hint: string) => {
      const request = await authorizationRequest(config, { prompt: 'none', id_token_hint: hint });
      return locationOf(await browser.fetch(request.url), request.url).searchParams;
    };
    expect((await hinted(teacherTokens.id_token as string)).get('code')).not.toBeNull();
    expect((await hinted(guardianTokens.id_token as string)).get('error')).toBe('login_required');
    expect((await hinted('abc.def.ghi')).get('error')).toBe('invalid_request');
    // The session the other person's hint did not use is still the teacher's.
    expect(browser.has('sso_session')).toBe(true);
    expect((await hinted(teacherTokens.id_token as string)).get('code')).not.toBeNull();
  });

  it('answers prompt=none without a session with login_required, and prefills login_hint', async () => {
    const config = await discover(DEMO_APP_ID, oidc.None());
    const { url, checks } = await authorizationRequest(config, { prompt: 'none' });
    const answer = await fetch(url, { redirect: 'manual' });
    expect(answer.status).toBe(302);
    const callback = locationOf(answer, url);
    expect(callback.searchParams.get('error')).toBe('login_required');
    expect(callback.searchParams.get('iss')).toBe(issuer);
    await expect(oidc.authorizationCodeGrant(config, callback, checks)).rejects.toMatchObject({
      error: 'login_required',
    });

    const hinted = await authorizationRequest(config, { login_hint: 'teacher@example.org' });
    const page = await (await fetch(hinted.url)).text();
    expect(page).toContain('value="teacher@example.org"');
  });

  it('refuses bad OpenID Connect parameters back at the redirect URI', async () => {
    const config = await discover(DEMO_APP_ID, oidc.None());
    for (const [extra, error] of [
      [{ scope: 'profile' }, 'invalid_scope'],
      [{ prompt: 'none login' }, 'invalid_request'],
      [{ prompt: 'sideways' }, 'invalid_request'],
      [{ max_age: '-1' }, 'invalid_request'],
    ] as const) {
      const { url } = await authorizationRequest(config, extra);
      const answer = await fetch(url, { redirect: 'manual' });
      expect(answer.status, JSON.stringify(extra)).toBe(302);
      expect(locationOf(answer, url).searchParams.get('error')).toBe(error);
    }
  });

  it('logs out with id_token_hint to a registered address, ending the session', async () => {
    const { browser, config, tokens } = await teacherSignedIn();

    const unregistered = oidc.buildEndSessionUrl(config, {
      id_token_hint: tokens.id_token as string,
      post_logout_redirect_uri: 'https://evil.example/',
    });
    expect((await browser.fetch(unregistered)).status).toBe(400);
    expect(browser.has('sso_session')).toBe(true);

    await logOutWithHint(browser, config, tokens.id_token as string);
  });

  it('sends a cross-site logout POST without the session cookie on as a GET, which ends the session', async () => {
    const { browser, config, tokens } = await teacherSignedIn();
    const state = oidc.randomState();
    const form = {
      id_token_hint: tokens.id_token as string,
      post_logout_redirect_uri: postLogoutUri,
      state,
    };
    // What a browser sends for another site's form: a SameSite=Lax cookie stays behind.
    const posted = await fetch(`${issuer}/logout`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://app.example' },
      body: new URLSearchParams(form),
    });
    expect(posted.status).toBe(303);
    expect(posted.headers.getSetCookie()).toEqual([]);
    const get = locationOf(posted, `${issuer}/logout`);
    expect(`${get.origin}${get.pathname}`).toBe(`${issuer}/logout`);
    expect(Object.fromEntries(get.searchParams)).toEqual(form);
    expect(browser.has('sso_session')).toBe(true);

    await expectSignedOut(await browser.fetch(get), get, state, browser, config);
  });

  it("revokes at logout every sign-in the session issued a code for, and nobody else's", async () => {
    const { browser, config, tokens } = await teacherSignedIn();
    const second = await discover(DEMO_CLIENT_ID, oidc.ClientSecretBasic(DEMO_SECRET));
    const silent = await authorizationRequest(second, { prompt: 'none' });
    const answer = await browser.fetch(silent.url);
    const silentTokens = await oidc.authorizationCodeGrant(
      second,
      locationOf(answer, silent.url),
      silent.checks,
    );
    const other = await authorizationRequest(config);
    const guardian = await oidc.authorizationCodeGrant(
      config,
      await completeSignIn(other.url, { username: 'guardian', password: DEMO_USER_PASSWORD }),
      other.checks,
    );
    const me = async (token: string) => {
      const response = await api.get('/api/sso/me', { token });
      await response.body?.cancel();
      return response.status;
    };
    expect([await me(tokens.access_token), await me(silentTokens.access_token)]).toEqual([200, 200]);

    await logOutWithHint(browser, config, tokens.id_token as string);

    // /me checks the sign-in at once; every other route within REVOCATION_REFRESH_SECONDS (revoked-reads.test.ts).
    expect([await me(tokens.access_token), await me(silentTokens.access_token)]).toEqual([401, 401]);
    await expect(oidc.refreshTokenGrant(config, tokens.refresh_token as string)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
    expect(await me(guardian.access_token)).toBe(200);
    await expect(oidc.refreshTokenGrant(config, guardian.refresh_token as string)).resolves.toBeDefined();
  });

  it('asks before logging out without an id_token_hint; the answer is a same-site form', async () => {
    const browser = new CookieJar();
    const config = await discover(DEMO_APP_ID, oidc.None());
    const a = await authorizationRequest(config);
    await completeSignIn(a.url, teacher, browser);
    const stolenSession = browser.header();

    const question = await browser.fetch(`${issuer}/logout`);
    expect(question.status).toBe(200);
    expect(await question.text()).toContain('name="confirm" value="yes"');
    expect(browser.has('sso_session')).toBe(true);

    const confirmed = await browser.fetch(`${issuer}/logout`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: api.url },
      body: 'confirm=yes',
    });
    expect(confirmed.status).toBe(200);
    expect(browser.has('sso_session')).toBe(false);

    const silent = await authorizationRequest(config, { prompt: 'none' });
    const after = await fetch(silent.url, { redirect: 'manual', headers: stolenSession });
    expect(locationOf(after, silent.url).searchParams.get('error')).toBe('login_required');
  });

  it('ends every session and refresh family of a person who signs out everywhere', async () => {
    const { browser, config, tokens } = await teacherSignedIn();
    const account = await api.users.byLogin('teacher');
    await api.users.update(account?.user_id as string, { signed_out_at: new Date().toISOString() });

    const silent = await authorizationRequest(config, { prompt: 'none' });
    const answer = await browser.fetch(silent.url);
    expect(locationOf(answer, silent.url).searchParams.get('error')).toBe('login_required');
    await expect(oidc.refreshTokenGrant(config, tokens.refresh_token as string)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
    const info = await fetch(`${issuer}/userinfo`, {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(info.status).toBe(401);
  });
});
