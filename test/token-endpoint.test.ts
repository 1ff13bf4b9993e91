// POST /api/sso/token (contract section 5, RFC 6749 sections 2.3, 4.4 and 5): the client_credentials
// grant by standard clients, and every error as an RFC 6749 body.
import { createPublicKey } from 'node:crypto';
import jsonwebtoken from 'jsonwebtoken';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scopes } from '../shared/domain/groups';
import { OAuthTokenResponse } from '../shared/schemas/service';
import { json } from './support/contract';
import { basic, expectOAuthError, form, postForm } from './support/oauth';
import { DEMO_SECRET, startTestApi, type TestApi } from './support/test-api';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.stop());

const tokenRequest = (body: string | undefined, headers: Record<string, string> = {}) =>
  postForm(api, 'token', body, headers);

describe('the client_credentials grant', () => {
  it('works through the discovery document with a standard OAuth client library', async () => {
    const config = await oidc.discovery(
      new URL(`${api.url}/api/sso`),
      'demo-client',
      DEMO_SECRET,
      oidc.ClientSecretBasic(DEMO_SECRET),
      { execute: [oidc.allowInsecureRequests] },
    );
    const tokens = await oidc.clientCredentialsGrant(config, { scope: 'students:read' });
    expect(tokens.token_type).toBe('bearer');
    expect(tokens.scope).toBe('students:read');
    const response = await api.get('/api/students?items_per_page=1', { token: tokens.access_token });
    expect(response.status).toBe(200);
  });

  it('issues tokens that a JWT library other than jose verifies against the JWKS', async () => {
    const jwks = await json<{ keys: (Record<string, unknown> & { kid: string })[] }>(
      await api.get('/api/sso/jwks', { token: null }),
    );
    const token = await api.token();
    const kid = (jsonwebtoken.decode(token, { complete: true })?.header.kid ?? '') as string;
    const jwk = jwks.keys.find((k) => k.kid === kid);
    const claims = jsonwebtoken.verify(token, createPublicKey({ key: jwk as never, format: 'jwk' }), {
      algorithms: ['ES256'],
      issuer: `${api.url}/api/sso`,
      audience: `${api.url}/api`,
    }) as Record<string, unknown>;
    expect(claims).toMatchObject({ sub: 'demo-client', tenant_id: 'demo', client_id: 'demo-client' });
  });

  it('answers with the RFC 6749 body, no-store, and every scope of the client by default', async () => {
    const response = await tokenRequest(form({ grant_type: 'client_credentials' }), {
      authorization: basic('demo-client', DEMO_SECRET),
    });
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('pragma')).toBe('no-cache');
    const body = await json<OAuthTokenResponse>(response);
    expect(OAuthTokenResponse.safeParse(body).error).toBeUndefined();
    expect(body.expires_in).toBe(900);
    // The demo client holds every scope (contract.md section 1).
    expect(body.scope.split(' ').sort()).toEqual([...scopes].sort());
  });

  it('takes credentials in the body, and JSON as well as a form', async () => {
    const params = { grant_type: 'client_credentials', client_id: 'demo-client', client_secret: DEMO_SECRET };
    expect((await tokenRequest(form(params))).status).toBe(200);
    const asJson = await tokenRequest(JSON.stringify({ ...params, scope: 'system:read' }), {
      'content-type': 'application/json',
    });
    expect((await json<OAuthTokenResponse>(asJson)).scope).toBe('system:read');
  });

  it('ignores parameters it does not know (RFC 6749 section 3.2)', async () => {
    const response = await tokenRequest(form({ grant_type: 'client_credentials', audience: 'x' }), {
      authorization: basic('demo-client', DEMO_SECRET),
    });
    expect(response.status).toBe(200);
  });
});

describe('token endpoint errors', () => {
  const auth = { authorization: basic('demo-client', DEMO_SECRET) };

  it('invalid_client with a Basic challenge for a wrong secret, an unknown client or no credentials', async () => {
    for (const [body, headers] of [
      [form({ grant_type: 'client_credentials' }), { authorization: basic('demo-client', 'wrong') }],
      [form({ grant_type: 'client_credentials' }), { authorization: basic('nobody', DEMO_SECRET) }],
      [form({ grant_type: 'client_credentials', client_id: 'demo-client', client_secret: 'wrong' }), {}],
      [form({ grant_type: 'client_credentials' }), {}],
      [form({ grant_type: 'client_credentials' }), { authorization: 'Basic !!!' }],
      [
        form({ grant_type: 'client_credentials' }),
        { authorization: `Basic ${Buffer.from('no-colon').toString('base64')}` },
      ],
      // Ids longer than any DynamoDB key: no client or secret has one (they were a 500).
      [form({ grant_type: 'client_credentials', client_id: 'a'.repeat(1100), client_secret: 'x' }), {}],
      [form({ grant_type: 'client_credentials' }), { authorization: basic('é'.repeat(600), DEMO_SECRET) }],
      [
        form({ grant_type: 'client_credentials' }),
        { authorization: basic('demo-client', `${'a'.repeat(1100)}.x`) },
      ],
      [
        form({
          grant_type: 'authorization_code',
          code: 'x',
          code_verifier: 'y',
          client_id: 'a'.repeat(1100),
        }),
        {},
      ],
    ] as const) {
      // expectOAuthError checks the Basic challenge of every 401.
      await expectOAuthError(await tokenRequest(body, headers), 401, 'invalid_client');
    }
  });

  it('answers a revocation for a client id longer than any key as for any unknown client', async () => {
    const revoke = (clientId: string) => postForm(api, 'revoke', { token: 'x', client_id: clientId });
    const unknown = await revoke('nobody');
    const long = await revoke('a'.repeat(1100));
    expect(unknown.status).toBe(401);
    expect(long.status).toBe(unknown.status);
    expect(await long.json()).toEqual(await unknown.json());
  });

  it('invalid_request for a missing grant_type, repeated parameters, two ways of authenticating, or bad bodies', async () => {
    await expectOAuthError(await tokenRequest(form({}), auth), 400, 'invalid_request');
    await expectOAuthError(await tokenRequest(undefined, auth), 400, 'invalid_request');
    await expectOAuthError(
      await tokenRequest('grant_type=client_credentials&grant_type=client_credentials', auth),
      400,
      'invalid_request',
    );
    await expectOAuthError(
      await tokenRequest(
        form({ grant_type: 'client_credentials', client_id: 'demo-client', client_secret: DEMO_SECRET }),
        auth,
      ),
      400,
      'invalid_request',
    );
    await expectOAuthError(
      await tokenRequest('{"grant_type": "client_credentials"', {
        ...auth,
        'content-type': 'application/json',
      }),
      400,
      'invalid_request',
    );
    await expectOAuthError(
      await tokenRequest('["client_credentials"]', { ...auth, 'content-type': 'application/json' }),
      400,
      'invalid_request',
    );
    await expectOAuthError(
      await tokenRequest('{"grant_type": 42}', { ...auth, 'content-type': 'application/json' }),
      400,
      'invalid_request',
    );
    await expectOAuthError(
      await tokenRequest('grant_type=client_credentials', { ...auth, 'content-type': 'text/plain' }),
      400,
      'invalid_request',
    );
    await expectOAuthError(
      await tokenRequest(form({ grant_type: 'client_credentials' }), { authorization: 'Bearer abc' }),
      401,
      'invalid_client',
    );
  });

  it('unsupported_grant_type for grants this endpoint does not take', async () => {
    for (const grant of [
      'password',
      'implicit',
      'urn:ietf:params:oauth:grant-type:jwt-bearer',
      'urn:ietf:params:oauth:grant-type:device_code',
    ]) {
      await expectOAuthError(
        await tokenRequest(form({ grant_type: grant }), auth),
        400,
        'unsupported_grant_type',
      );
    }
  });

  it('invalid_scope for scopes that do not exist or the client may not have', async () => {
    for (const scope of ['students:delete', 'admin', 'students:read nonsense']) {
      await expectOAuthError(
        await tokenRequest(form({ grant_type: 'client_credentials', scope }), auth),
        400,
        'invalid_scope',
      );
    }
  });

  it('refuses an oversized body with 413 and an RFC 6749 body', async () => {
    const body = form({ grant_type: 'client_credentials', padding: 'x'.repeat(20_000) });
    await expectOAuthError(await tokenRequest(body, auth), 413, 'invalid_request');
  });

  it('answers other methods with a 405 problem', async () => {
    const response = await fetch(`${api.url}/api/sso/token`);
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
    expect(response.headers.get('content-type')).toBe('application/problem+json');
  });
});
