// POST /api/sso/token with grant_type=authorization_code (RFC 6749 section 4.1.3, RFC 7636 section 4.6):
// a code and its PKCE verifier become a person's access token and refresh token; every mismatch is
// invalid_grant, a code works once, and reusing it revokes what the first exchange issued. Codes are
// arranged in the table as the sign-in page issues them.
import { createLocalJWKSet, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_APP_ID, DEMO_CLIENT_ID, DEMO_REDIRECT_URIS } from '../infra/local/bootstrap';
import { hashSecret } from '../shared/auth/secret-hash';
import { ClientRepository, type OAuthClient } from '../shared/data/client-repository';
import { arrangeCode, exchangeCode, refresh, signIn } from './support/authorization-codes';
import { expectProblem, json } from './support/contract';
import { organisationBody } from './support/fixtures';
import { basic, expectOAuthError, expectTokens, postForm, tokenState } from './support/oauth';
import { DEMO_SECRET, startTestApi, type TestApi } from './support/test-api';

let api: TestApi;
let clients: ClientRepository;
beforeAll(async () => {
  api = await startTestApi();
  clients = new ClientRepository(api.db, api.tableName);
});
afterAll(() => api.stop());

const [redirectUri, otherRedirectUri] = DEMO_REDIRECT_URIS as [string, string];

async function registerClient(client: Partial<OAuthClient> & { client_id: string }, secret?: string) {
  await clients.put({
    name: client.client_id,
    scopes: ['students:read', 'teachers:read', 'tutors:read'],
    status: 'active',
    created_at: new Date().toISOString(),
    redirect_uris: [redirectUri],
    ...(secret ? { secret_hash: await hashSecret(secret) } : {}),
    ...client,
  });
}

describe('exchanging a code (RFC 6749 section 4.1.3)', () => {
  it("answers a person's access token, verifiable with the JWKS, and a refresh token", async () => {
    const arranged = await arrangeCode(api, { username: 'teacher' });
    const tokens = await expectTokens(await exchangeCode(api, arranged));
    expect(tokens).toMatchObject({ token_type: 'Bearer', expires_in: 900, scope: arranged.scopes.join(' ') });
    expect(arranged.scopes).toEqual([
      'students:read',
      'teachers:read',
      'tutors:read',
      'academic_sessions:read',
      'courses:read',
      'classes:read',
      'enrollments:read',
      'gradebook:read',
      'attendance:read',
      'assessment:read',
      'gradebook:write',
      'attendance:write',
    ]);
    expect(tokens.refresh_token).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const jwks = await json<{ keys: object[] }>(await api.get('/api/sso/jwks', { token: null }));
    const { payload, protectedHeader } = await jwtVerify(
      tokens.access_token,
      createLocalJWKSet(jwks as never),
      {
        issuer: `${api.url}/api/sso`,
        audience: `${api.url}/api`,
        typ: 'at+jwt',
      },
    );
    expect(protectedHeader.alg).toBe('ES256');
    expect(payload).toMatchObject({
      sub: arranged.person.userId,
      client_id: DEMO_APP_ID,
      tenant_id: 'demo',
      entity_id: arranged.person.entityId,
      roles: ['teacher'],
      scope: arranged.scopes.join(' '),
    });

    const me = await json(await api.get('/api/sso/me', { token: tokens.access_token }));
    expect(me).toMatchObject({ sub: arranged.person.userId, client_id: DEMO_APP_ID });
    expect((await api.get('/api/students?items_per_page=1', { token: tokens.access_token })).status).toBe(
      200,
    );
  });

  it('lets a confidential client authenticate by HTTP Basic or in the body', async () => {
    const byBasic = await arrangeCode(api, { clientId: DEMO_CLIENT_ID });
    expect((await expectTokens(await exchangeCode(api, byBasic))).refresh_token).toBeDefined();
    const inBody = await arrangeCode(api, { clientId: DEMO_CLIENT_ID });
    const response = await exchangeCode(
      api,
      inBody,
      { client_id: DEMO_CLIENT_ID, client_secret: DEMO_SECRET },
      {},
    );
    expect((await expectTokens(response)).refresh_token).toBeDefined();
  });

  it('takes a JSON body as well as a form', async () => {
    const arranged = await arrangeCode(api);
    const response = await postForm(
      api,
      'token',
      JSON.stringify({
        grant_type: 'authorization_code',
        code: arranged.code,
        code_verifier: arranged.verifier,
        redirect_uri: arranged.redirectUri,
        client_id: DEMO_APP_ID,
      }),
      { 'content-type': 'application/json' },
    );
    await expectTokens(response);
  });

  it('answers no refresh token to a client that may not use the refresh_token grant', async () => {
    await registerClient({ client_id: 'code-only-app', grant_types: ['authorization_code'] });
    const arranged = await arrangeCode(api, { clientId: 'code-only-app' });
    const tokens = await expectTokens(await exchangeCode(api, arranged));
    expect(tokens.refresh_token).toBeUndefined();
    expect(tokens.scope).toBe('students:read teachers:read tutors:read');
  });
});

describe('PKCE (RFC 7636 section 4.6): S256 only', () => {
  it('refuses a wrong verifier with invalid_grant', async () => {
    const arranged = await arrangeCode(api);
    const other = await arrangeCode(api);
    await expectOAuthError(
      await exchangeCode(api, arranged, { code_verifier: other.verifier }),
      400,
      'invalid_grant',
    );
  });

  it('refuses the challenge itself as the verifier, as a plain-method client would send it', async () => {
    const arranged = await arrangeCode(api, { challenge: 'x'.repeat(43) });
    await expectOAuthError(
      await exchangeCode(api, arranged, { code_verifier: 'x'.repeat(43) }),
      400,
      'invalid_grant',
    );
  });

  it('refuses a missing or malformed verifier with invalid_request, leaving the code usable', async () => {
    const arranged = await arrangeCode(api);
    for (const verifier of [undefined, '', 'short', `${'a'.repeat(42)}!`, 'a'.repeat(129)]) {
      const body = await expectOAuthError(
        await exchangeCode(api, arranged, { code_verifier: verifier }),
        400,
        'invalid_request',
      );
      expect(body.error_description).toContain('code_verifier');
    }
    await expectTokens(await exchangeCode(api, arranged));
  });
});

describe('codes that do not grant the request get invalid_grant', () => {
  it('an expired code', async () => {
    const arranged = await arrangeCode(api, { expiresIn: -1 });
    await expectOAuthError(await exchangeCode(api, arranged), 400, 'invalid_grant');
  });

  it('a code nobody issued', async () => {
    const arranged = await arrangeCode(api);
    await expectOAuthError(
      await exchangeCode(api, arranged, { code: `${arranged.code.slice(0, -2)}AA` }),
      400,
      'invalid_grant',
    );
  });

  it("another client's code, even with its verifier", async () => {
    const arranged = await arrangeCode(api, { clientId: DEMO_CLIENT_ID });
    await expectOAuthError(
      await exchangeCode(api, arranged, { client_id: DEMO_APP_ID }, {}),
      400,
      'invalid_grant',
    );
  });

  it('a redirect_uri omitted or different when the authorization request named one', async () => {
    const omitted = await arrangeCode(api, { redirectUriGiven: true });
    await expectOAuthError(
      await exchangeCode(api, omitted, { redirect_uri: undefined }),
      400,
      'invalid_grant',
    );
    const different = await arrangeCode(api, { redirectUriGiven: true });
    await expectOAuthError(
      await exchangeCode(api, different, { redirect_uri: otherRedirectUri }),
      400,
      'invalid_grant',
    );
    const trailingSlash = await arrangeCode(api, { redirectUriGiven: true });
    await expectOAuthError(
      await exchangeCode(api, trailingSlash, { redirect_uri: `${redirectUri}/` }),
      400,
      'invalid_grant',
    );
  });

  it('takes the exchange without redirect_uri when the authorization request named none, but not another one', async () => {
    const omitted = await arrangeCode(api, { redirectUriGiven: false });
    await expectTokens(await exchangeCode(api, omitted, { redirect_uri: undefined }));
    const different = await arrangeCode(api, { redirectUriGiven: false });
    await expectOAuthError(
      await exchangeCode(api, different, { redirect_uri: otherRedirectUri }),
      400,
      'invalid_grant',
    );
  });
});

describe('a code is single use (RFC 6749 section 4.1.2)', () => {
  it('refuses a second exchange and revokes the refresh token the first one issued', async () => {
    const first = await signIn(api);
    await expectOAuthError(await exchangeCode(api, first), 400, 'invalid_grant');
    await expectOAuthError(await refresh(api, first.refreshToken), 400, 'invalid_grant');
  });

  it("refuses the first exchange's access token for writes and at /me at once when the code is reused", async () => {
    const first = await signIn(api, { username: 'admin' });
    const send = (method: string, path: string, body?: unknown) =>
      fetch(`${api.url}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${first.tokens.access_token}`,
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
    expect((await send('GET', '/api/sso/me')).status).toBe(200);
    const created = await send('POST', '/api/entities', organisationBody());
    expect(created.status, await created.text()).toBe(201);

    const reuse = await expectOAuthError(await exchangeCode(api, first), 400, 'invalid_grant');
    expect(reuse.error_description).toContain('refused at once for writes and at /api/sso/me');
    for (const [method, path, body] of [
      ['GET', '/api/sso/me', undefined],
      ['POST', '/api/entities', organisationBody()],
    ] as const) {
      const refused = await send(method, path, body);
      const problem = await expectProblem(refused, 401);
      expect(problem.detail).toBe('The access token is not valid: its sign-in has been revoked.');
      expect(refused.headers.get('www-authenticate')).toContain('error="invalid_token"');
    }
  });

  it('refuses a second exchange even after a failed first one', async () => {
    const arranged = await arrangeCode(api);
    const other = await arrangeCode(api);
    await expectOAuthError(
      await exchangeCode(api, arranged, { code_verifier: other.verifier }),
      400,
      'invalid_grant',
    );
    await expectOAuthError(await exchangeCode(api, arranged), 400, 'invalid_grant');
  });

  it('lets at most one of two racing exchanges succeed, and then revokes what it issued', async () => {
    for (let round = 0; round < 3; round++) {
      const arranged = await arrangeCode(api);
      const answers = await Promise.all([exchangeCode(api, arranged), exchangeCode(api, arranged)]);
      const succeeded = answers.filter((answer) => answer.status === 200);
      expect(succeeded.length).toBeLessThanOrEqual(1);
      for (const answer of answers.filter((a) => a.status !== 200)) {
        await expectOAuthError(answer, 400, 'invalid_grant');
      }
      for (const answer of succeeded) {
        const { refresh_token } = await expectTokens(answer);
        await expectOAuthError(await refresh(api, refresh_token as string), 400, 'invalid_grant');
      }
    }
  });
});

describe('client authentication and the grants a client may use', () => {
  it('a public client sends its client_id alone; with a secret it is refused (invalid_client)', async () => {
    const arranged = await arrangeCode(api, { clientId: DEMO_APP_ID });
    await expectOAuthError(
      await exchangeCode(api, arranged, { client_secret: 'anything' }),
      401,
      'invalid_client',
    );
    await expectOAuthError(
      await exchangeCode(api, arranged, { client_id: undefined }, { authorization: basic(DEMO_APP_ID, '') }),
      401,
      'invalid_client',
    );
    await expectTokens(await exchangeCode(api, arranged));
  });

  it('a confidential client that does not authenticate is refused (invalid_client), and the code stays usable', async () => {
    const arranged = await arrangeCode(api, { clientId: DEMO_CLIENT_ID });
    await expectOAuthError(
      await exchangeCode(api, arranged, { client_id: DEMO_CLIENT_ID }, {}),
      401,
      'invalid_client',
    );
    await expectOAuthError(
      await exchangeCode(api, arranged, {}, { authorization: basic(DEMO_CLIENT_ID, 'wrong') }),
      401,
      'invalid_client',
    );
    await expectOAuthError(await exchangeCode(api, arranged, {}, {}), 401, 'invalid_client');
    await expectTokens(await exchangeCode(api, arranged));
  });

  it('a revoked client is refused (invalid_client)', async () => {
    await registerClient({
      client_id: 'revoked-app',
      grant_types: ['authorization_code', 'refresh_token'],
      status: 'revoked',
    });
    const arranged = await arrangeCode(api, { clientId: 'revoked-app' });
    await expectOAuthError(await exchangeCode(api, arranged), 401, 'invalid_client');
  });

  it('a client may use only its own grant types (unauthorized_client)', async () => {
    await registerClient({ client_id: 'machine', grant_types: ['client_credentials'] }, 'machine-secret');
    const arranged = await arrangeCode(api, { clientId: 'machine' });
    await expectOAuthError(
      await exchangeCode(api, arranged, {}, { authorization: basic('machine', 'machine-secret') }),
      400,
      'unauthorized_client',
    );
    await expectOAuthError(
      await postForm(
        api,
        'token',
        { grant_type: 'refresh_token', refresh_token: 'x' },
        {
          authorization: basic('machine', 'machine-secret'),
        },
      ),
      400,
      'unauthorized_client',
    );
    // The code was not touched: the grant was refused before it was looked at.
    await registerClient({ client_id: 'machine', grant_types: ['authorization_code'] }, 'machine-secret');
    await expectTokens(
      await exchangeCode(api, arranged, {}, { authorization: basic('machine', 'machine-secret') }),
    );
  });

  it('a public client may never use client_credentials, even if registered with it (unauthorized_client)', async () => {
    await registerClient({
      client_id: 'greedy-app',
      grant_types: ['client_credentials', 'authorization_code'],
    });
    for (const clientId of [DEMO_APP_ID, 'greedy-app']) {
      await expectOAuthError(
        await postForm(api, 'token', { grant_type: 'client_credentials', client_id: clientId }),
        400,
        'unauthorized_client',
      );
    }
  });
});

describe('bad input gets an RFC 6749 error and changes nothing', () => {
  it('missing, repeated, malformed or mistyped parameters and bodies', async () => {
    const arranged = await arrangeCode(api);
    const valid = {
      grant_type: 'authorization_code',
      code: arranged.code,
      code_verifier: arranged.verifier,
      redirect_uri: arranged.redirectUri,
      client_id: DEMO_APP_ID,
    };
    const before = await tokenState(api);
    const cases: [string | Record<string, string>, Record<string, string>, number, string][] = [
      [{ ...valid, code: '' }, {}, 400, 'invalid_request'],
      [{ ...valid, code: 'c'.repeat(513) }, {}, 400, 'invalid_request'],
      [{ ...valid, grant_type: '' }, {}, 400, 'invalid_request'],
      [{ ...valid, redirect_uri: `${redirectUri}?${'x'.repeat(2048)}` }, {}, 400, 'invalid_request'],
      [`${new URLSearchParams(valid)}&code=${arranged.code}`, {}, 400, 'invalid_request'],
      [`${new URLSearchParams(valid)}&code_verifier=${arranged.verifier}`, {}, 400, 'invalid_request'],
      [
        JSON.stringify({ ...valid, code: 42 }),
        { 'content-type': 'application/json' },
        400,
        'invalid_request',
      ],
      [
        JSON.stringify({ ...valid, code: [arranged.code] }),
        { 'content-type': 'application/json' },
        400,
        'invalid_request',
      ],
      [JSON.stringify(valid).slice(0, -1), { 'content-type': 'application/json' }, 400, 'invalid_request'],
      [new URLSearchParams(valid).toString(), { 'content-type': 'text/plain' }, 400, 'invalid_request'],
      [{ ...valid, padding: 'x'.repeat(17_000) }, {}, 413, 'invalid_request'],
      [{ ...valid, client_id: 'nobody' }, {}, 401, 'invalid_client'],
      [{ ...valid, client_id: '' }, {}, 401, 'invalid_client'],
      [valid, { authorization: 'Basic !!!' }, 401, 'invalid_client'],
      [valid, { authorization: basic('someone-else', 'x') }, 400, 'invalid_request'],
    ];
    for (const [body, headers, status, error] of cases) {
      await expectOAuthError(await postForm(api, 'token', body, headers), status, error);
    }
    expect(await tokenState(api)).toEqual(before);
    await expectTokens(await postForm(api, 'token', valid));
  });

  it('answers other methods with a 405 problem', async () => {
    const response = await fetch(`${api.url}/api/sso/token`, { method: 'PUT' });
    expect(response.status).toBe(405);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
  });
});
