// POST /api/sso/revoke (RFC 7009): a client revokes its refresh token and with it the whole sign-in (its
// access tokens too: at once where sign-ins are checked, within seconds on reads, test/revoked-reads.test.ts);
// any other token answers 200 and changes nothing, an access token is refused as unsupported_token_type,
// and client authentication works as at the token endpoint.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_APP_ID, DEMO_CLIENT_ID } from '../infra/local/bootstrap';
import { clientAuth, refresh, signIn } from './support/authorization-codes';
import { basic, expectOAuthError, expectTokens, postForm, tokenState } from './support/oauth';
import { DEMO_SECRET, startTestApi, type TestApi } from './support/test-api';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.stop());

function revoke(token: string, clientId: string = DEMO_APP_ID, extra: Record<string, string> = {}) {
  const auth = clientAuth(clientId);
  return postForm(api, 'revoke', { token, ...auth.params, ...extra }, auth.headers);
}

/** RFC 7009 section 2.2: 200, whatever the body; this service sends none, and nothing to cache. */
async function expectRevoked(response: Response) {
  expect(response.status, await response.clone().text()).toBe(200);
  expect(response.headers.get('cache-control')).toBe('no-store');
  expect(await response.text()).toBe('');
}

describe('revoking a refresh token (RFC 7009 section 2.1)', () => {
  it('ends its sign-in: the token and every token of its family are refused after', async () => {
    const session = await signIn(api);
    const rotated = await expectTokens(await refresh(api, session.refreshToken));
    await expectRevoked(await revoke(rotated.refresh_token as string));
    await expectOAuthError(await refresh(api, rotated.refresh_token as string), 400, 'invalid_grant');
  });

  it("ends the sign-in's access tokens at /me at once, the first and a refreshed one", async () => {
    const session = await signIn(api);
    const rotated = await expectTokens(await refresh(api, session.refreshToken));
    const accessTokens = [session.tokens.access_token, rotated.access_token];
    for (const token of accessTokens) expect((await api.get('/api/sso/me', { token })).status).toBe(200);
    await expectRevoked(await revoke(rotated.refresh_token as string));
    for (const token of accessTokens) {
      const me = await api.get('/api/sso/me', { token });
      expect(me.status).toBe(401);
      expect(me.headers.get('www-authenticate')).toContain('error="invalid_token"');
      await me.body?.cancel();
    }
  });

  it('works the same with a used token of the family, and a second time', async () => {
    const session = await signIn(api);
    const rotated = await expectTokens(await refresh(api, session.refreshToken));
    await expectRevoked(await revoke(session.refreshToken));
    await expectRevoked(await revoke(session.refreshToken));
    await expectOAuthError(await refresh(api, rotated.refresh_token as string), 400, 'invalid_grant');
  });

  it('takes a confidential client by Basic or in the body, the hint either way, and a JSON body', async () => {
    const byBasic = await signIn(api, { clientId: DEMO_CLIENT_ID });
    await expectRevoked(
      await revoke(byBasic.refreshToken, DEMO_CLIENT_ID, { token_type_hint: 'refresh_token' }),
    );
    await expectOAuthError(await refresh(api, byBasic.refreshToken, DEMO_CLIENT_ID), 400, 'invalid_grant');

    const inBody = await signIn(api, { clientId: DEMO_CLIENT_ID });
    const response = await postForm(api, 'revoke', {
      token: inBody.refreshToken,
      token_type_hint: 'access_token',
      client_id: DEMO_CLIENT_ID,
      client_secret: DEMO_SECRET,
    });
    await expectRevoked(response);
    await expectOAuthError(await refresh(api, inBody.refreshToken, DEMO_CLIENT_ID), 400, 'invalid_grant');

    const asJson = await signIn(api);
    await expectRevoked(
      await postForm(api, 'revoke', JSON.stringify({ token: asJson.refreshToken, client_id: DEMO_APP_ID }), {
        'content-type': 'application/json',
      }),
    );
    await expectOAuthError(await refresh(api, asJson.refreshToken), 400, 'invalid_grant');
  });
});

describe('tokens that are not revoked (RFC 7009 section 2.2)', () => {
  it('an unknown token answers 200 and changes nothing', async () => {
    const session = await signIn(api);
    const before = await tokenState(api);
    await expectRevoked(await revoke('not-a-token-we-issued'));
    await expectRevoked(await revoke(`${session.refreshToken.slice(0, -2)}AA`));
    expect(await tokenState(api)).toEqual(before);
  });

  it("another client's token answers 200 and stays usable by its own client", async () => {
    const session = await signIn(api, { clientId: DEMO_APP_ID });
    const before = await tokenState(api);
    await expectRevoked(await revoke(session.refreshToken, DEMO_CLIENT_ID));
    expect(await tokenState(api)).toEqual(before);
    await expectTokens(await refresh(api, session.refreshToken));
  });

  it('an access token gets unsupported_token_type: access tokens expire instead (RFC 7009 section 2.2.1)', async () => {
    const session = await signIn(api);
    for (const token of [session.tokens.access_token, await api.token()]) {
      await expectOAuthError(await revoke(token), 400, 'unsupported_token_type');
      await expectOAuthError(
        await revoke(token, DEMO_APP_ID, { token_type_hint: 'access_token' }),
        400,
        'unsupported_token_type',
      );
    }
    expect((await api.get('/api/sso/me', { token: session.tokens.access_token })).status).toBe(200);
    await expectTokens(await refresh(api, session.refreshToken));
  });
});

describe('client authentication at the revocation endpoint', () => {
  it('is required, as at the token endpoint (invalid_client, 401), and a refused request changes nothing', async () => {
    const session = await signIn(api, { clientId: DEMO_CLIENT_ID });
    const token = session.refreshToken;
    const before = await tokenState(api);
    for (const [body, headers] of [
      [{ token }, {}],
      [{ token, client_id: DEMO_CLIENT_ID }, {}],
      [{ token, client_id: DEMO_CLIENT_ID, client_secret: 'wrong' }, {}],
      [{ token }, { authorization: basic(DEMO_CLIENT_ID, 'wrong') }],
      [{ token }, { authorization: basic('nobody', DEMO_SECRET) }],
      [{ token }, { authorization: 'Basic !!!' }],
      [{ token }, { authorization: 'Bearer abc' }],
      [{ token, client_id: DEMO_APP_ID, client_secret: 'anything' }, {}],
    ] as [Record<string, string>, Record<string, string>][]) {
      await expectOAuthError(await postForm(api, 'revoke', body, headers), 401, 'invalid_client');
    }
    expect(await tokenState(api)).toEqual(before);
    await expectTokens(await refresh(api, token, DEMO_CLIENT_ID));
  });
});

describe('bad input gets an RFC 6749 error and changes nothing', () => {
  it('missing, repeated, malformed or mistyped parameters and bodies', async () => {
    const session = await signIn(api);
    const token = session.refreshToken;
    const valid = { token, client_id: DEMO_APP_ID };
    const json = { 'content-type': 'application/json' };
    const before = await tokenState(api);
    const cases: [string | Record<string, string> | undefined, Record<string, string>, number, string][] = [
      [undefined, {}, 401, 'invalid_client'],
      [{ client_id: DEMO_APP_ID }, {}, 400, 'invalid_request'],
      [{ ...valid, token: '' }, {}, 400, 'invalid_request'],
      [{ ...valid, token: 't'.repeat(8193) }, {}, 400, 'invalid_request'],
      [`${new URLSearchParams(valid)}&token=${token}`, {}, 400, 'invalid_request'],
      [JSON.stringify({ ...valid, token: 7 }), json, 400, 'invalid_request'],
      [JSON.stringify([valid]), json, 400, 'invalid_request'],
      ['{"token":', json, 400, 'invalid_request'],
      [new URLSearchParams(valid).toString(), { 'content-type': 'text/plain' }, 400, 'invalid_request'],
      [{ ...valid, padding: 'x'.repeat(17_000) }, {}, 413, 'invalid_request'],
    ];
    for (const [body, headers, status, error] of cases) {
      await expectOAuthError(await postForm(api, 'revoke', body, headers), status, error);
    }
    expect(await tokenState(api)).toEqual(before);
    await expectTokens(await refresh(api, token));
  });

  it('answers other methods with a 405 problem and refuses query parameters', async () => {
    const response = await fetch(`${api.url}/api/sso/revoke`);
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
    const session = await signIn(api);
    const withQuery = await fetch(`${api.url}/api/sso/revoke?token=${session.refreshToken}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: session.refreshToken, client_id: DEMO_APP_ID }),
    });
    await expectOAuthError(withQuery, 400, 'invalid_request');
    await expectTokens(await refresh(api, session.refreshToken));
  });
});
