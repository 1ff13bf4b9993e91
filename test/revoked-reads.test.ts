// Revocation reaches reads (docs/sso.md, "Tokens"): once a sign-in is revoked (its code replayed, its
// session logged out, a refresh token reused, RFC 7009 revocation) or its account signed out everywhere
// (a new password, disabling, erasure), its access tokens are refused on every route, a native record
// read and a OneRoster read included, within REVOCATION_REFRESH_SECONDS; here 1 s, against the 60 s
// promised. Logout's part, the session revoking what it issued, is in oidc.test.ts.
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileAuditSource } from '../infra/cli/admin/audit';
import { erasePerson } from '../infra/cli/admin/people';
import { setPassword, setStatus } from '../infra/cli/admin/users';
import { fileAuditLog } from '../shared/audit/audit-log';
import { RecordRepository } from '../shared/data/record-repository';
import type { User } from '../shared/data/user-repository';
import { RecordWriter } from '../shared/records/record-writer';
import { clientAuth, exchangeCode, refresh, signIn } from './support/authorization-codes';
import { expectOAuthError, expectTokens, postForm } from './support/oauth';
import { startTestApi, type TestApi } from './support/test-api';

const REFRESH_SECONDS = 1;
/** What the test allows: the refresh period and a margin for a loaded machine, far inside the 60 s promise. */
const WITHIN_MS = REFRESH_SECONDS * 1000 + 4_000;

let api: TestApi;
let student: { student_id: string; entity_id: string };
beforeAll(async () => {
  api = await startTestApi({ revocationRefreshSeconds: REFRESH_SECONDS });
  const page = (await (await api.get('/api/students?items_per_page=1')).json()) as {
    students: (typeof student)[];
  };
  student = page.students[0] as typeof student;
});
afterAll(() => api.stop());

/** The reads a token is tried on: one student by id, and the same person through OneRoster (by entity id). */
const reads = () => [
  `/api/students/${student.student_id}`,
  `/ims/oneroster/rostering/v1p2/students/${student.entity_id}`,
];

async function expectReads(token: string, status: number) {
  for (const path of reads()) {
    const response = await api.get(path, { token });
    expect(response.status, `${path}: ${await response.clone().text()}`).toBe(status);
    if (status === 401) expect(response.headers.get('www-authenticate')).toContain('error="invalid_token"');
    await response.body?.cancel();
  }
}

/** Tries the reads until both refuse the token, failing if that takes longer than the test allows. */
async function expectRefusedWithin(token: string) {
  const started = Date.now();
  for (;;) {
    const statuses = await Promise.all(
      reads().map(async (path) => {
        const response = await api.get(path, { token });
        await response.body?.cancel();
        return response.status;
      }),
    );
    if (statuses.every((status) => status === 401)) break;
    expect(
      statuses.every((status) => status === 200 || status === 401),
      String(statuses),
    ).toBe(true);
    expect(Date.now() - started, 'refused within the bound').toBeLessThan(WITHIN_MS);
    await sleep(100);
  }
  await expectReads(token, 401);
}

describe("a revoked sign-in's access tokens", () => {
  it('are refused on reads once the code is replayed (RFC 6749 section 4.1.2)', async () => {
    const first = await signIn(api, { username: 'admin' });
    await expectReads(first.tokens.access_token, 200);
    await expectOAuthError(await exchangeCode(api, first), 400, 'invalid_grant');
    await expectRefusedWithin(first.tokens.access_token);
  });

  it('are refused on reads once the refresh token is revoked (RFC 7009), the refreshed one too', async () => {
    const session = await signIn(api, { username: 'admin' });
    const rotated = await expectTokens(await refresh(api, session.refreshToken));
    await expectReads(rotated.access_token, 200);
    const auth = clientAuth(session.clientId);
    const revoked = await postForm(
      api,
      'revoke',
      { token: rotated.refresh_token as string, ...auth.params },
      auth.headers,
    );
    expect(revoked.status).toBe(200);
    await expectRefusedWithin(rotated.access_token);
    await expectReads(session.tokens.access_token, 401);
  });

  it('are refused on reads once a used refresh token is presented again (RFC 9700 section 4.14.2)', async () => {
    const session = await signIn(api, { username: 'admin' });
    const rotated = await expectTokens(await refresh(api, session.refreshToken));
    await expectOAuthError(await refresh(api, session.refreshToken), 400, 'invalid_grant');
    await expectRefusedWithin(rotated.access_token);
  });

  it("leave the person's other sign-ins and the client's own tokens alone", async () => {
    const kept = await signIn(api, { username: 'admin' });
    const revoked = await signIn(api, { username: 'admin' });
    await expectOAuthError(await exchangeCode(api, revoked), 400, 'invalid_grant');
    await expectRefusedWithin(revoked.tokens.access_token);
    await expectReads(kept.tokens.access_token, 200);
    await expectReads(await api.token(), 200);
  });
});

describe("an account's access tokens, once it is signed out everywhere", () => {
  /** Waits out the second of the sign-out, so a token issued after it is not of the same second. */
  const nextSecond = () => sleep(1000 - (Date.now() % 1000) + 10);

  it('are refused on reads after a new password (users set-password), and a later sign-in reads', async () => {
    const before = await signIn(api, { username: 'admin' });
    await expectReads(before.tokens.access_token, 200);
    await nextSecond();
    await setPassword(api.users, 'admin', 'a-new-password-for-the-test');
    await expectRefusedWithin(before.tokens.access_token);
    await nextSecond();
    const after = await signIn(api, { username: 'admin' });
    await expectReads(after.tokens.access_token, 200);
  });

  it('are refused on reads after the account is disabled (users disable)', async () => {
    await nextSecond();
    const before = await signIn(api, { username: 'admin' });
    await expectReads(before.tokens.access_token, 200);
    await nextSecond();
    await setStatus(api.users, 'admin', 'disabled');
    await expectRefusedWithin(before.tokens.access_token);
    await setStatus(api.users, 'admin', 'active');
    await expectReads(before.tokens.access_token, 401);
  });

  it('are refused on reads once the person is erased (people erase)', async () => {
    await nextSecond();
    const user = (await api.users.byLogin('admin')) as User;
    const before = await signIn(api, { username: 'admin' });
    await expectReads(before.tokens.access_token, 200);
    const records = new RecordRepository(api.db, api.tableName);
    await erasePerson(
      {
        db: api.db,
        tableName: api.tableName,
        tenantId: 'demo',
        records,
        writer: new RecordWriter(api.db, api.tableName, records),
        users: api.users,
        auditSource: fileAuditSource(api.auditLogFile),
        auditLog: fileAuditLog(api.auditLogFile),
        operator: 'test@revoked-reads',
      },
      user.entity_id,
      true,
    );
    await expectRefusedWithin(before.tokens.access_token);
  });
});
