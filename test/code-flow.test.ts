// The whole code flow driven by a standard client library (openid-client) over HTTP: discovery, an
// authorization URL with PKCE (S256) and state, the sign-in form submitted, the code exchanged, the
// refresh token rotated and then revoked (RFC 6749 section 4.1, RFC 7636, RFC 7009, RFC 9207). It needs
// the sign-in page (GET /api/sso/authorize), so it runs wherever the route table has it.
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_APP_ID, DEMO_CLIENT_ID, DEMO_REDIRECT_URIS } from '../infra/local/bootstrap';
import { DEMO_USER_PASSWORD } from '../infra/local/local-run';
import { routes } from '../shared/routes';
import { json } from './support/contract';
import { completeSignIn } from './support/sign-in-form';
import { DEMO_SECRET, startTestApi, type TestApi } from './support/test-api';

const signInPageExists = routes.some((route) => route.id === 'get-authorize');
const redirectUri = DEMO_REDIRECT_URIS[0] as string;

describe.skipIf(!signInPageExists)('the code flow with openid-client', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi();
  });
  afterAll(() => api.stop());

  const clients = [
    ['a public client', DEMO_APP_ID, () => oidc.None()],
    ['a confidential client', DEMO_CLIENT_ID, () => oidc.ClientSecretBasic(DEMO_SECRET)],
  ] as const;

  /** An authorization URL with fresh PKCE and state, and the redirect the sign-in form answers with. */
  async function authorize(config: oidc.Configuration, scope?: string) {
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const authorizationUrl = oidc.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      ...(scope ? { scope } : {}),
    });
    expect(authorizationUrl.href.startsWith(`${api.url}/api/sso/authorize?`)).toBe(true);
    const callback = await completeSignIn(authorizationUrl, {
      username: 'teacher',
      password: DEMO_USER_PASSWORD,
    });
    expect(`${callback.origin}${callback.pathname}`).toBe(redirectUri);
    expect(callback.searchParams.get('state')).toBe(state);
    expect(callback.searchParams.get('iss')).toBe(`${api.url}/api/sso`);
    return { callback, checks: { pkceCodeVerifier: verifier, expectedState: state } };
  }

  it.each(clients)(
    '%s: discovery, sign-in with PKCE, exchange, refresh, revocation',
    async (_, clientId, auth) => {
      const config = await oidc.discovery(new URL(`${api.url}/api/sso`), clientId, undefined, auth(), {
        execute: [oidc.allowInsecureRequests],
      });
      const teacher = await api.users.byLogin('teacher');

      const first = await authorize(config, 'students:read teachers:read');
      const tokens = await oidc.authorizationCodeGrant(config, first.callback, first.checks);
      expect(tokens.scope).toBe('students:read teachers:read');
      expect(tokens.refresh_token).toBeDefined();
      const me = await json(await api.get('/api/sso/me', { token: tokens.access_token }));
      expect(me.sub).toBe(teacher?.user_id);

      const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token as string);
      expect(refreshed.refresh_token).toBeDefined();
      expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
      expect(
        (await api.get('/api/students?items_per_page=1', { token: refreshed.access_token })).status,
      ).toBe(200);

      await oidc.tokenRevocation(config, refreshed.refresh_token as string);
      await expect(oidc.refreshTokenGrant(config, refreshed.refresh_token as string)).rejects.toMatchObject({
        error: 'invalid_grant',
      });
    },
  );

  it.each(clients)(
    '%s: a code exchanged twice is refused, and the first refresh token dies',
    async (_, clientId, auth) => {
      const config = await oidc.discovery(new URL(`${api.url}/api/sso`), clientId, undefined, auth(), {
        execute: [oidc.allowInsecureRequests],
      });
      const { callback, checks } = await authorize(config);
      const tokens = await oidc.authorizationCodeGrant(config, callback, checks);
      await expect(oidc.authorizationCodeGrant(config, callback, checks)).rejects.toMatchObject({
        error: 'invalid_grant',
      });
      await expect(oidc.refreshTokenGrant(config, tokens.refresh_token as string)).rejects.toMatchObject({
        error: 'invalid_grant',
      });
    },
  );
});
