// Bearer authentication of every protected operation (contract section 5, interface-spec section 5):
// each kind of bad token gets 401 with a Bearer challenge, a missing scope gets 403, and the token may
// come from the header or the access_token query parameter.
import { createLocalJWKSet, importJWK, jwtVerify, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateSigningKey } from '../shared/auth/signing-keys';
import type { StoredKey } from '../shared/data/signing-key-repository';
import type { Route } from '../shared/route';
import { routes } from '../shared/routes';
import { OAuthMeResponse } from '../shared/schemas/service';
import { expectProblem, json } from './support/contract';
import { startTestApi, type TestApi } from './support/test-api';

let api: TestApi;
let realKey: StoredKey;
beforeAll(async () => {
  api = await startTestApi();
  realKey = (await api.signingKeys.newestPrivateKey()) as StoredKey;
});
afterAll(() => api.stop());

const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

interface Forge {
  key?: StoredKey;
  header?: Record<string, unknown>;
  claims?: Record<string, unknown>;
  omit?: string[];
}

/** A token signed with the tenant's real key (or another), with any claim changed or left out. */
async function forge({ key = realKey, header = {}, claims = {}, omit = [] }: Forge = {}) {
  const now = Math.floor(Date.now() / 1000);
  const payload: Record<string, unknown> = {
    iss: `${api.url}/api/sso`,
    aud: `${api.url}/api`,
    sub: 'demo-client',
    client_id: 'demo-client',
    tenant_id: 'demo',
    scope: 'students:read teachers:read',
    iat: now,
    exp: now + 600,
    jti: crypto.randomUUID(),
    ...claims,
  };
  for (const claim of omit) delete payload[claim];
  return new SignJWT(payload)
    .setProtectedHeader({ alg: 'ES256', kid: key.kid, typ: 'at+jwt', ...header })
    .sign(await importJWK(key.jwk, 'ES256'));
}

const protectedRoutes = routes.filter((r) => r.auth.kind === 'scope' || r.auth.kind === 'token');
const samplePath = (path: string) => path.replace(/\{\w+\}/g, '00000000-0000-4000-8000-000000000000');

async function expectUnauthorized(response: Response, invalidToken: boolean, route?: Route) {
  const challenge = response.headers.get('www-authenticate') ?? '';
  if (route?.dialect.kind === 'imsx') {
    // The OneRoster binding answers with imsx_StatusInfo (its section 3.3) instead of a problem.
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ imsx_codeMajor: 'failure', imsx_severity: 'error' });
  } else {
    await expectProblem(response, 401);
  }
  expect(challenge).toMatch(/^Bearer realm="school-api"/);
  if (invalidToken) expect(challenge).toContain('error="invalid_token"');
  else expect(challenge).not.toContain('error=');
}

describe('requests without a usable token get 401 on every protected operation', () => {
  it.each(protectedRoutes.map((r) => [r.id, r] as const))('%s', async (_id, route) => {
    const send = (headers: Record<string, string>) =>
      fetch(`${api.url}${samplePath(route.path)}`, {
        method: route.method,
        headers: { 'content-type': 'application/json', ...headers },
        ...(route.body ? { body: '{}' } : {}),
      });
    await expectUnauthorized(await send({}), false, route);
    await expectUnauthorized(await send({ authorization: 'Bearer not.a.jwt' }), true, route);
    await expectUnauthorized(await send({ authorization: 'Basic ZGVtbzpkZW1v' }), false, route);
  });
});

describe('bad tokens get 401 invalid_token', () => {
  const cases: [string, () => Promise<string>][] = [
    ['malformed', async () => 'eyJhbGciOiJFUzI1NiJ9.garbage.garbage'],
    [
      'a tampered payload',
      async () => {
        const [h, , s] = (await forge()).split('.');
        return `${h}.${b64({ sub: 'demo-client', scope: 'students:read', tenant_id: 'demo' })}.${s}`;
      },
    ],
    [
      'a tampered signature',
      async () => {
        const token = await forge();
        return `${token.slice(0, -4)}${token.endsWith('AAAA') ? 'BBBB' : 'AAAA'}`;
      },
    ],
    [
      'alg none (unsigned)',
      async () => {
        const [, p] = (await forge()).split('.');
        return `${b64({ alg: 'none', typ: 'at+jwt' })}.${p}.`;
      },
    ],
    [
      'HS256 keyed with the public key',
      async () => {
        const publicKey = (await api.signingKeys.publicKeys())[0] as StoredKey;
        const secret = new TextEncoder().encode(JSON.stringify(publicKey.jwk));
        const [, p] = (await forge()).split('.');
        const header = b64({ alg: 'HS256', kid: realKey.kid, typ: 'at+jwt' });
        const { createHmac } = await import('node:crypto');
        const sig = createHmac('sha256', secret).update(`${header}.${p}`).digest('base64url');
        return `${header}.${p}.${sig}`;
      },
    ],
    ['expired', () => forge({ claims: { iat: 1_700_000_000, exp: 1_700_000_600 } })],
    ['not yet valid', () => forge({ claims: { nbf: Math.floor(Date.now() / 1000) + 3600 } })],
    [
      'signed with another key under our kid',
      async () => forge({ key: { ...(await generateSigningKey()).privateKey, kid: realKey.kid } }),
    ],
    [
      'signed with a key we never published',
      async () => forge({ key: (await generateSigningKey()).privateKey }),
    ],
    ['issued for another tenant', () => forge({ claims: { tenant_id: 'another-school' } })],
    ['issued for another audience', () => forge({ claims: { aud: 'https://elsewhere.example/api' } })],
    ['from another issuer', () => forge({ claims: { iss: 'https://evil.example/api/sso' } })],
    ['without a tenant claim', () => forge({ omit: ['tenant_id'] })],
    ['without an expiry', () => forge({ omit: ['exp'] })],
    ['of another token type', () => forge({ header: { typ: 'JWT' } })],
    ['too long', async () => `${await forge()}${'A'.repeat(5000)}`],
  ];
  it.each(cases)('%s', async (_name, make) => {
    const token = await make();
    await expectUnauthorized(await api.get('/api/students', { token }), true);
    await expectUnauthorized(
      await api.get(`/api/students?access_token=${encodeURIComponent(token)}`, { token: null }),
      true,
    );
  });

  it('a well-formed token signed with the real key passes, so the cases above fail for their own reason', async () => {
    expect((await api.get('/api/students', { token: await forge() })).status).toBe(200);
  });
});

describe('scopes', () => {
  it('a valid token without the needed scope gets 403 insufficient_scope', async () => {
    const token = await api.token('students:read');
    expect((await api.get('/api/students', { token })).status).toBe(200);
    const write = await fetch(`${api.url}/api/students`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(write.headers.get('www-authenticate')).toContain('scope="students:write"');
    await expectProblem(write, 403);
    for (const [path, scope] of [
      ['/api/teachers', 'teachers:read'],
      ['/api/entities', 'entities:read'],
      ['/api/tutors', 'tutors:read'],
      ['/api/staffs', 'staffs:read'],
      ['/api/system', 'system:read'],
    ]) {
      const response = await api.get(path as string, { token });
      const challenge = response.headers.get('www-authenticate') ?? '';
      await expectProblem(response, 403);
      expect(challenge).toContain('error="insufficient_scope"');
      expect(challenge).toContain(`scope="${scope}"`);
    }
  });
});

describe('where the token may be', () => {
  it('is accepted as the access_token query parameter (RFC 6750 section 2.3)', async () => {
    const token = await api.token();
    const body = await json<{ students: unknown[] }>(
      await api.get(`/api/students?items_per_page=2&access_token=${token}`, { token: null }),
    );
    expect(body.students.length).toBe(2);
  });

  it('may not be in both the header and the query', async () => {
    const token = await api.token();
    await expectProblem(await api.get(`/api/students?access_token=${token}`, { token }), 400);
  });

  it('takes the scheme name in any case', async () => {
    const token = await api.token();
    const response = await api.get('/api/students?items_per_page=1', {
      token: null,
      headers: { authorization: `bearer ${token}` },
    });
    expect(response.status).toBe(200);
  });
});

describe('GET /api/sso/me', () => {
  it('describes the calling token', async () => {
    const me = await json(await api.get('/api/sso/me', { token: await api.token('students:read') }));
    expect(OAuthMeResponse.safeParse(me).error).toBeUndefined();
    expect(me).toMatchObject({
      sub: 'demo-client',
      client_id: 'demo-client',
      tenant_id: 'demo',
      scopes: ['students:read'],
    });
    expect(Date.parse(me.expires_at as string)).toBe((me.exp as number) * 1000);
  });
});

describe('the published keys and metadata', () => {
  it('verify issued tokens with the JWKS alone, with the contract claims present', async () => {
    const jwks = await json<{ keys: Record<string, unknown>[] }>(
      await api.get('/api/sso/jwks', { token: null }),
    );
    for (const key of jwks.keys) {
      expect(key).not.toHaveProperty('d');
      expect(key).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig' });
    }
    const token = await api.token();
    const { payload, protectedHeader } = await jwtVerify(token, createLocalJWKSet(jwks as never), {
      issuer: `${api.url}/api/sso`,
      audience: `${api.url}/api`,
    });
    expect(protectedHeader).toMatchObject({ alg: 'ES256', typ: 'at+jwt' });
    expect(protectedHeader.kid).toBe(jwks.keys[0]?.kid);
    for (const claim of ['iss', 'aud', 'sub', 'exp', 'iat', 'jti', 'scope', 'tenant_id', 'client_id']) {
      expect(payload).toHaveProperty(claim);
    }
  });

  it.each([
    ['/api/sso/.well-known/openid-configuration'],
    // RFC 8414 section 3.1: the well-known segment goes between the host and the issuer's path.
    ['/.well-known/oauth-authorization-server/api/sso'],
  ])(
    'publish the discovery document (RFC 8414, RFC 9207) at %s, the issuer at the base address plus /api/sso',
    async (path) => {
      const metadata = await json(await api.get(path, { token: null }));
      const authMethods = ['client_secret_basic', 'client_secret_post', 'none'];
      expect(metadata).toEqual({
        issuer: `${api.url}/api/sso`,
        authorization_endpoint: `${api.url}/api/sso/authorize`,
        token_endpoint: `${api.url}/api/sso/token`,
        revocation_endpoint: `${api.url}/api/sso/revoke`,
        jwks_uri: `${api.url}/api/sso/jwks`,
        grant_types_supported: ['client_credentials', 'authorization_code', 'refresh_token'],
        response_types_supported: ['code'],
        code_challenge_methods_supported: ['S256'],
        scopes_supported: expect.any(Array),
        token_endpoint_auth_methods_supported: authMethods,
        revocation_endpoint_auth_methods_supported: authMethods,
        authorization_response_iss_parameter_supported: true,
        // OpenID Connect Discovery 1.0 section 3 and RP-Initiated Logout 1.0 section 3.1 (test/oidc.test.ts).
        userinfo_endpoint: `${api.url}/api/sso/userinfo`,
        end_session_endpoint: `${api.url}/api/sso/logout`,
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['ES256'],
        claims_supported: expect.arrayContaining(['sub', 'auth_time', 'nonce', 'at_hash', 'amr']),
        prompt_values_supported: ['none', 'login', 'consent', 'select_account'],
        response_modes_supported: ['query'],
        ui_locales_supported: ['en', 'pt'],
        claims_parameter_supported: false,
        request_parameter_supported: false,
        request_uri_parameter_supported: false,
      });
      expect(metadata.scopes_supported).toEqual(
        expect.arrayContaining([
          'openid',
          'profile',
          'email',
          'roles',
          'students:read',
          'teachers:read',
          'entities:read',
          'tutors:read',
          'staffs:read',
          'system:read',
        ]),
      );
    },
  );
});
