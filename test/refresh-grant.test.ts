// POST /api/sso/token with grant_type=refresh_token (RFC 6749 section 6, RFC 9700 section 4.14.2): each
// refresh rotates the token, a used token presented again revokes the whole family, tokens expire with
// their sign-in, and the account and its roles are read again at every refresh.
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setPassword } from '../infra/cli/admin/users';
import { DEMO_APP_ID, DEMO_CLIENT_ID } from '../infra/local/bootstrap';
import { opaqueTokenHash } from '../shared/auth/opaque-token';
import { keys } from '../shared/data/keys';
import type { User } from '../shared/data/user-repository';
import { refresh, signIn } from './support/authorization-codes';
import { basic, expectOAuthError, expectTokens, postForm, tokenState } from './support/oauth';
import { startTestApi, type TestApi } from './support/test-api';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.stop());

async function refreshed(refreshToken: string, clientId?: string, extra?: Record<string, string>) {
  const tokens = await expectTokens(await refresh(api, refreshToken, clientId, extra));
  expect(tokens.refresh_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  return tokens as typeof tokens & { refresh_token: string };
}

/** Changes a demo account for the length of `body`, then puts it back. */
async function withAccount(username: string, changes: Partial<User>, body: () => Promise<void>) {
  const user = (await api.users.byLogin(username)) as User;
  await api.users.update(user.user_id, changes);
  try {
    await body();
  } finally {
    await api.users.update(user.user_id, { status: user.status, admin: user.admin });
  }
}

describe('rotation (RFC 9700 section 4.14.2)', () => {
  it('answers a new refresh token and a new access token at each refresh, for the same person', async () => {
    const session = await signIn(api, { username: 'guardian' });
    const seen = new Set([session.refreshToken]);
    let current = session.refreshToken;
    for (let i = 0; i < 3; i++) {
      const tokens = await refreshed(current);
      expect(seen.has(tokens.refresh_token)).toBe(false);
      seen.add(tokens.refresh_token);
      expect(tokens.scope).toBe(session.scopes.join(' '));
      expect(decodeJwt(tokens.access_token)).toMatchObject({
        sub: session.person.userId,
        entity_id: session.person.entityId,
        roles: ['tutor'],
        client_id: DEMO_APP_ID,
      });
      current = tokens.refresh_token;
    }
    expect((await api.get('/api/sso/me', { token: (await refreshed(current)).access_token })).status).toBe(
      200,
    );
  });

  it('refuses a used refresh token, and revokes its whole family: the newest token is refused too', async () => {
    const session = await signIn(api);
    const second = await refreshed(session.refreshToken);
    const third = await refreshed(second.refresh_token);
    await expectOAuthError(await refresh(api, session.refreshToken), 400, 'invalid_grant');
    await expectOAuthError(await refresh(api, third.refresh_token), 400, 'invalid_grant');
    await expectOAuthError(await refresh(api, second.refresh_token), 400, 'invalid_grant');
  });

  it('lets only one of two racing refreshes with one token succeed, and revokes the family', async () => {
    const session = await signIn(api);
    const answers = await Promise.all([
      refresh(api, session.refreshToken),
      refresh(api, session.refreshToken),
    ]);
    const succeeded = answers.filter((answer) => answer.status === 200);
    expect(succeeded).toHaveLength(1);
    for (const answer of answers.filter((a) => a.status !== 200))
      await expectOAuthError(answer, 400, 'invalid_grant');
    const { refresh_token } = await expectTokens(succeeded[0] as Response);
    await expectOAuthError(await refresh(api, refresh_token as string), 400, 'invalid_grant');
  });

  it('keeps families apart: revoking one sign-in leaves another of the same person working', async () => {
    const first = await signIn(api);
    const second = await signIn(api);
    await refreshed(first.refreshToken);
    await expectOAuthError(await refresh(api, first.refreshToken), 400, 'invalid_grant');
    await refreshed(second.refreshToken);
  });
});

describe('refresh tokens that are refused (invalid_grant)', () => {
  it('an expired one: tokens expire with their sign-in', async () => {
    const session = await signIn(api);
    await api.db.send(
      new UpdateCommand({
        TableName: api.tableName,
        Key: keys.refreshToken(opaqueTokenHash(session.refreshToken)),
        UpdateExpression: 'SET expires_at = :past',
        ExpressionAttributeValues: { ':past': new Date(Date.now() - 1000).toISOString() },
      }),
    );
    await expectOAuthError(await refresh(api, session.refreshToken), 400, 'invalid_grant');
  });

  it('one of a disabled or locked account, which works again once the account is active', async () => {
    const session = await signIn(api, { username: 'student' });
    for (const status of ['disabled', 'locked'] as const) {
      await withAccount('student', { status }, async () => {
        await expectOAuthError(await refresh(api, session.refreshToken), 400, 'invalid_grant');
      });
    }
    await refreshed(session.refreshToken);
  });

  it('one of a sign-in from before the password changed; a sign-in after it refreshes', async () => {
    const before = await signIn(api, { username: 'staff' });
    await setPassword(api.users, 'staff', 'a new password for staff');
    await expectOAuthError(await refresh(api, before.refreshToken), 400, 'invalid_grant');
    const after = await signIn(api, { username: 'staff' });
    await refreshed(after.refreshToken);
  });

  it("another client's, which stays usable by its own client", async () => {
    const session = await signIn(api, { clientId: DEMO_APP_ID });
    await expectOAuthError(await refresh(api, session.refreshToken, DEMO_CLIENT_ID), 400, 'invalid_grant');
    await refreshed(session.refreshToken, DEMO_APP_ID);
  });

  it('one nobody issued', async () => {
    const session = await signIn(api);
    await expectOAuthError(
      await refresh(api, `${session.refreshToken.slice(0, -2)}AA`),
      400,
      'invalid_grant',
    );
  });
});

describe('scopes at refresh', () => {
  it("are the sign-in's scopes that the person's current roles still grant", async () => {
    const session = await signIn(api, { username: 'admin', clientId: DEMO_CLIENT_ID });
    expect(session.scopes).toContain('students:write');
    const asAdmin = await refreshed(session.refreshToken, DEMO_CLIENT_ID);
    expect(asAdmin.scope).toBe(session.scopes.join(' '));
    expect(decodeJwt(asAdmin.access_token).roles).toEqual(['admin', 'staff']);
    await withAccount('admin', { admin: false }, async () => {
      const asStaff = await refreshed(asAdmin.refresh_token, DEMO_CLIENT_ID);
      expect(asStaff.scope).toBe(
        'teachers:read staffs:read academic_sessions:read courses:read classes:read enrollments:read gradebook:read attendance:read assessment:read',
      );
      expect(decodeJwt(asStaff.access_token).roles).toEqual(['staff']);
      const restored = asStaff.refresh_token;
      await api.users.update(session.person.userId, { admin: true });
      expect((await refreshed(restored, DEMO_CLIENT_ID)).scope).toBe(session.scopes.join(' '));
    });
  });

  it('may be narrowed for one access token; the family keeps what the sign-in granted', async () => {
    const session = await signIn(api, { username: 'teacher' });
    const narrowed = await refreshed(session.refreshToken, DEMO_APP_ID, { scope: 'students:read' });
    expect(narrowed.scope).toBe('students:read');
    expect(decodeJwt(narrowed.access_token).scope).toBe('students:read');
    const full = await refreshed(narrowed.refresh_token);
    expect(full.scope).toBe(
      'students:read teachers:read tutors:read academic_sessions:read courses:read classes:read enrollments:read gradebook:read attendance:read assessment:read gradebook:write attendance:write',
    );
  });

  it('never widens an OpenID Connect sign-in: openid alone gets no API scope, an identity scope not granted is refused', async () => {
    const session = await signIn(api, { username: 'teacher', identityScopes: ['openid', 'profile'] });
    const all = session.scopes.join(' ');
    const openIdOnly = await refreshed(session.refreshToken, DEMO_APP_ID, { scope: 'openid' });
    expect(openIdOnly.scope).toBe('openid');
    expect(openIdOnly.id_token).toBeDefined();
    expect(decodeJwt(openIdOnly.access_token).scope).toBe('openid');
    const one = await refreshed(openIdOnly.refresh_token, DEMO_APP_ID, { scope: 'openid students:read' });
    expect(one.scope).toBe('openid students:read');
    // Omitted, the scope is all the sign-in granted (RFC 6749 section 6).
    const omitted = await refreshed(one.refresh_token);
    expect(omitted.scope).toBe(`openid profile ${all}`);
    for (const scope of ['openid email', 'openid students:write']) {
      await expectOAuthError(
        await refresh(api, omitted.refresh_token, DEMO_APP_ID, { scope }),
        400,
        'invalid_scope',
      );
    }
    // A sign-in without openid cannot get it at refresh.
    const plain = await signIn(api, { username: 'teacher' });
    await expectOAuthError(
      await refresh(api, plain.refreshToken, DEMO_APP_ID, { scope: 'openid' }),
      400,
      'invalid_scope',
    );
    await refreshed(omitted.refresh_token);
  });

  it('refuses a scope the sign-in did not grant (invalid_scope), and the token stays usable', async () => {
    const session = await signIn(api, { username: 'teacher' });
    for (const scope of ['students:write', 'staffs:read', 'students:read nonsense']) {
      await expectOAuthError(
        await refresh(api, session.refreshToken, DEMO_APP_ID, { scope }),
        400,
        'invalid_scope',
      );
    }
    await refreshed(session.refreshToken);
  });
});

describe('client authentication at refresh', () => {
  it('a public client sends its client_id alone; a confidential one must authenticate (invalid_client)', async () => {
    const session = await signIn(api, { clientId: DEMO_CLIENT_ID });
    const params = { grant_type: 'refresh_token', refresh_token: session.refreshToken };
    await expectOAuthError(
      await postForm(api, 'token', { ...params, client_id: DEMO_CLIENT_ID }),
      401,
      'invalid_client',
    );
    await expectOAuthError(
      await postForm(api, 'token', params, { authorization: basic(DEMO_CLIENT_ID, 'wrong') }),
      401,
      'invalid_client',
    );
    await refreshed(session.refreshToken, DEMO_CLIENT_ID);
  });
});

describe('bad input gets an RFC 6749 error and changes nothing', () => {
  it('missing, repeated, malformed or mistyped parameters and bodies', async () => {
    const session = await signIn(api);
    const valid = {
      grant_type: 'refresh_token',
      refresh_token: session.refreshToken,
      client_id: DEMO_APP_ID,
    };
    const json = { 'content-type': 'application/json' };
    const before = await tokenState(api);
    const cases: [string | Record<string, string>, Record<string, string>, number, string][] = [
      [{ ...valid, refresh_token: '' }, {}, 400, 'invalid_request'],
      [{ ...valid, refresh_token: 'r'.repeat(513) }, {}, 400, 'invalid_request'],
      [`${new URLSearchParams(valid)}&refresh_token=${session.refreshToken}`, {}, 400, 'invalid_request'],
      [`${new URLSearchParams(valid)}&scope=a&scope=b`, {}, 400, 'invalid_request'],
      [JSON.stringify({ ...valid, refresh_token: null }), json, 400, 'invalid_request'],
      [JSON.stringify({ ...valid, scope: ['students:read'] }), json, 400, 'invalid_request'],
      ['null', json, 400, 'invalid_request'],
      [{ ...valid, scope: 'students:delete' }, {}, 400, 'invalid_scope'],
      [{ ...valid, grant_type: 'refresh-token' }, {}, 400, 'unsupported_grant_type'],
      [{ ...valid, client_id: 'nobody' }, {}, 401, 'invalid_client'],
    ];
    for (const [body, headers, status, error] of cases) {
      await expectOAuthError(await postForm(api, 'token', body, headers), status, error);
    }
    expect(await tokenState(api)).toEqual(before);
    await refreshed(session.refreshToken);
  });
});
