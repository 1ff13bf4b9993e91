// `npm run admin` against a live local API on DynamoDB Local: the CLI is pointed at the test's table
// (TABLE_NAME, DYNAMODB_ENDPOINT, AWS_REGION, as for a deployed tenant) and runs in this process with its
// own arguments, environment, standard input and output; twice it runs as the operator starts it, a child
// process (`npm run admin`, and tsx with a password piped in), and its command modules run directly where
// only the outcome matters. Clients it creates get tokens and lose them when
// revoked; accounts are created, disabled, unlocked and given passwords; bad arguments exit 2 and change
// nothing; and a rotated key signs new tokens while the old one verifies until it is retired.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { decodeProtectedHeader } from 'jose';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createClient, listClients } from '../infra/cli/admin/clients';
import { runAdmin } from '../infra/cli/admin/main';
import { UsageError } from '../infra/cli/admin/usage-error';
import { createUser, listUsers, setPassword, setStatus, unlockUser } from '../infra/cli/admin/users';
import { DEMO_APP_ID, DEMO_CLIENT_ID } from '../infra/local/bootstrap';
import { demoTenant } from '../infra/local/seed/demo-tenant';
import { verifySecret } from '../shared/auth/secret-hash';
import { ClientRepository } from '../shared/data/client-repository';
import { keys } from '../shared/data/keys';
import { RecordRepository } from '../shared/data/record-repository';
import {
  accountThrottleSubject,
  nameThrottleSubject,
  SignInThrottleRepository,
} from '../shared/data/sign-in-throttle-repository';
import type { Entity } from '../shared/schemas/records';
import { json } from './support/contract';
import { postForm } from './support/oauth';
import { authorizeUrl, pkce, REDIRECT_URI } from './support/sign-in';
import { CookieJar, completeSignIn, locationOf } from './support/sign-in-form';
import { DEMO_SECRET, startTestApi, type TestApi } from './support/test-api';

const REFRESH_SECONDS = 1;
const ROOT = fileURLToPath(new URL('..', import.meta.url));

let api: TestApi;
let clients: ClientRepository;
let accounts: Parameters<typeof createUser>[0];
beforeAll(async () => {
  api = await startTestApi({ signingKeyRefreshSeconds: REFRESH_SECONDS });
  clients = new ClientRepository(api.db, api.tableName);
  accounts = {
    users: api.users,
    records: api.records,
    throttles: new SignInThrottleRepository(api.db, api.tableName),
  };
});
afterAll(() => api.stop());

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

interface RunOptions {
  /** What is piped to standard input. */
  input?: string;
  /** A child process, as the operator starts it: `npm run admin`, or the entry file under tsx. */
  spawn?: 'npm' | 'tsx';
  env?: Record<string, string | undefined>;
}

/** The environment of a run against the test's table, as for a deployed tenant. */
const adminEnv = (env: RunOptions['env']) => ({
  ...process.env,
  TABLE_NAME: api.tableName,
  DYNAMODB_ENDPOINT: inject('dynamodbEndpoint'),
  AWS_REGION: 'eu-west-1',
  TENANT_ID: 'demo',
  ...env,
});

/** Runs the CLI against the test's table: in this process, or as a child process when told to. */
async function admin(args: string[], options: RunOptions = {}): Promise<Run> {
  if (options.spawn) return spawned(args, options);
  let stdout = '';
  let stderr = '';
  const code = await runAdmin({
    argv: args,
    env: adminEnv(options.env),
    stdin: { isTTY: false, read: async () => options.input ?? '' },
    out: (line) => {
      stdout += `${line}\n`;
    },
    err: (line) => {
      stderr += `${line}\n`;
    },
  });
  return { code, stdout, stderr };
}

function spawned(args: string[], options: RunOptions): Promise<Run> {
  const [command, prefix] =
    options.spawn === 'npm'
      ? ['npm', ['run', '--silent', 'admin', '--']]
      : [`${ROOT}node_modules/.bin/tsx`, ['infra/cli/admin.ts']];
  const child = spawn(command, [...prefix, ...args], {
    cwd: ROOT,
    env: adminEnv(options.env),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  child.stdin.end(options.input ?? '');
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** A refused run: exit 2 and one line on standard error. */
function expectRefused(run: Run, message: RegExp) {
  expect(run.code, run.stderr).toBe(2);
  expect(run.stdout).toBe('');
  expect(run.stderr.trim().split('\n')).toHaveLength(1);
  expect(run.stderr).toMatch(message);
}

const basic = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;

function clientToken(id: string, secret: string, scope?: string) {
  return fetch(`${api.url}/api/sso/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic(id, secret) },
    body: new URLSearchParams({ grant_type: 'client_credentials', ...(scope ? { scope } : {}) }),
  });
}

/** A new token of the demo client, never a cached one. */
async function freshToken(): Promise<string> {
  return (await json<{ access_token: string }>(await clientToken(DEMO_CLIENT_ID, DEMO_SECRET))).access_token;
}

const field = (output: string, name: string) => new RegExp(`^${name}\\s+(\\S+)$`, 'm').exec(output)?.[1];

const entities = demoTenant()
  .filter((r) => r.group === 'entities')
  .map((r) => r.record as Entity);
const kinds = (entity: Entity) => new Set(entity.roles.map((role) => role.role));
const staffEntity = entities.filter((e) => kinds(e).has('staff'))[3] as Entity;
const studentEntity = entities.filter((e) => kinds(e).size === 1 && kinds(e).has('student'))[5] as Entity;
const organisation = entities.find((e) => e.entity_type === 'organisation') as Entity;

describe('clients', () => {
  let created: { id: string; secret: string };

  it('create prints the id and secret once; the secret gets a client_credentials token (npm run admin)', async () => {
    const run = await admin(
      [
        'clients',
        'create',
        '--name',
        'Reports service',
        '--scopes',
        'students:read teachers:read',
        '--rate-limit',
        '600',
        '--profile',
        'roster-basic',
        '--schools',
        organisation.entity_id,
      ],
      { spawn: 'npm' },
    );
    expect(run.code, run.stderr).toBe(0);
    const id = field(run.stdout, 'client_id') as string;
    const secret = field(run.stdout, 'client_secret') as string;
    expect(secret).toMatch(/^[A-Za-z0-9_-]{12}\.[A-Za-z0-9_-]{43}$/);
    created = { id, secret };

    const stored = await clients.get(id);
    expect(stored).toMatchObject({
      name: 'Reports service',
      status: 'active',
      scopes: ['students:read', 'teachers:read'],
      grant_types: ['client_credentials'],
      rate_limit: 600,
      profile: 'roster-basic',
      schools: [organisation.entity_id],
    });
    const secrets = await clients.secrets(id);
    expect(secrets.map((s) => s.secret_hash)).toEqual([expect.stringMatching(/^scrypt\$/)]);
    expect(JSON.stringify([stored, secrets])).not.toContain(secret);

    const body = await json<{ access_token: string; scope: string }>(await clientToken(id, secret));
    expect(body.scope).toBe('students:read teachers:read');
    expect((await api.get('/api/students?items_per_page=1', { token: body.access_token })).status).toBe(200);
    await expect((await clientToken(id, `${secret}x`)).status).toBe(401);
  });

  it('list shows every client and never a secret or its hash', async () => {
    const run = await admin(['clients', 'list', '--json']);
    expect(run.code, run.stderr).toBe(0);
    const listed = JSON.parse(run.stdout) as { client_id: string }[];
    expect(listed.map((c) => c.client_id)).toEqual(expect.arrayContaining([created.id, DEMO_CLIENT_ID]));
    expect(run.stdout).not.toContain('secret');
    expect(run.stdout).not.toContain(created.secret);
    const table = await admin(['clients', 'list']);
    expect(table.stdout).toMatch(
      new RegExp(`^${created.id}\\s+active\\s+confidential\\s+Reports service`, 'm'),
    );
  });

  it('revoke stops its token requests with invalid_client', async () => {
    const run = await admin(['clients', 'revoke', created.id]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`Revoked client ${created.id}`);
    const refused = await clientToken(created.id, created.secret);
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ error: 'invalid_client' });
    expect((await clients.get(created.id))?.status).toBe('revoked');
  });

  it('registers a public client for the code flow, with its redirect URIs and no secret', async () => {
    const { client, secret } = await createClient(clients, new RecordRepository(api.db, api.tableName), {
      name: 'Guardian app',
      scopes: ['students:read'],
      grantTypes: ['authorization_code', 'refresh_token'],
      redirectUris: ['https://app.escola.example/callback', 'http://127.0.0.1:8976/callback'],
      postLogoutRedirectUris: ['https://app.escola.example/signed-out'],
      isPublic: true,
    });
    expect(secret).toBeUndefined();
    const stored = await clients.get(client.client_id);
    expect(stored).toMatchObject({
      grant_types: ['authorization_code', 'refresh_token'],
      redirect_uris: ['https://app.escola.example/callback', 'http://127.0.0.1:8976/callback'],
    });
    expect(stored).not.toHaveProperty('secret_hash');
  });

  it('set-logout-uris replaces where logout may send the people of a code-flow client', async () => {
    const run = await admin([
      'clients',
      'set-logout-uris',
      DEMO_APP_ID,
      '--post-logout-redirect-uri',
      'https://app.escola.example/bye',
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(
      (await new ClientRepository(api.db, api.tableName).get(DEMO_APP_ID))?.post_logout_redirect_uris,
    ).toEqual(['https://app.escola.example/bye']);
    expectRefused(
      await admin([
        'clients',
        'set-logout-uris',
        DEMO_APP_ID,
        '--post-logout-redirect-uri',
        'http://evil.example/',
      ]),
      /https/,
    );
    expectRefused(await admin(['clients', 'set-logout-uris', 'no-such-client']), /there is no client/);
    expect(await clients.get('no-such-client')).toBeUndefined();

    // A revoked client stays revoked, with the addresses it had.
    const { client: revoked } = await createClient(clients, new RecordRepository(api.db, api.tableName), {
      name: 'Retired portal',
      scopes: ['students:read'],
      grantTypes: ['authorization_code'],
      redirectUris: ['https://old.escola.example/callback'],
      postLogoutRedirectUris: ['https://old.escola.example/bye'],
      isPublic: false,
    });
    await clients.revoke(revoked.client_id);
    const stored = await clients.get(revoked.client_id);
    expectRefused(
      await admin([
        'clients',
        'set-logout-uris',
        revoked.client_id,
        '--post-logout-redirect-uri',
        'https://old.escola.example/later',
      ]),
      /is revoked/,
    );
    expect(await clients.get(revoked.client_id)).toEqual(stored);
    expect(await clients.setPostLogoutRedirectUris(revoked.client_id, [])).toBeUndefined();
    expect(await clients.get(revoked.client_id)).toEqual(stored);
  });

  it('bad arguments exit 2 with one line and register nothing', async () => {
    const before = (await listClients(clients)).length;
    expectRefused(
      await admin(['clients', 'create', '--name', 'X', '--scopes', 'students:read students:delete']),
      /unknown scope students:delete/,
    );
    expectRefused(
      await admin([
        'clients',
        'create',
        '--name',
        'X',
        '--scopes',
        'students:read',
        '--grant-types',
        'authorization_code',
        '--redirect-uri',
        'http://portal.example.org/cb',
      ]),
      /must use https/,
    );
    expectRefused(await admin(['clients', 'revoke', 'no-such-client']), /There is no client no-such-client/);
    expectRefused(await admin(['clients', 'delete', created.id]), /unknown clients verb delete/);
    expectRefused(await admin(['schools', 'list']), /unknown command schools/);
    expect((await listClients(clients)).length).toBe(before);
  });
});

describe('users', () => {
  const password = 'correct horse battery staple';

  it('create takes the password from standard input and keeps only its hash', async () => {
    const run = await admin(
      [
        'users',
        'create',
        '--username',
        'Rita.Admin',
        '--entity',
        staffEntity.entity_id,
        '--email',
        'Rita@Escola.example',
        '--admin',
        '--password-stdin',
      ],
      { input: `${password}\n`, spawn: 'tsx' },
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('Created account rita.admin (admin)');
    expect(run.stdout).not.toContain(password);
    const user = await api.users.byLogin('RITA@escola.example');
    expect(user).toMatchObject({
      username: 'rita.admin',
      email: 'rita@escola.example',
      entity_id: staffEntity.entity_id,
      admin: true,
      status: 'active',
    });
    expect(await verifySecret(password, user?.password_hash)).toBe(true);
    expect(JSON.stringify(user)).not.toContain(password);
  });

  it('create generates a strong password when none is piped in, and shows it once', async () => {
    const run = await admin(['users', 'create', '--username', 'tomas', '--entity', studentEntity.entity_id]);
    expect(run.code, run.stderr).toBe(0);
    const generated = field(run.stdout, 'password') as string;
    expect(generated.length).toBeGreaterThanOrEqual(24);
    expect(await verifySecret(generated, (await api.users.byLogin('tomas'))?.password_hash)).toBe(true);
  });

  it('refuses an unknown entity, an organisation, admin rights without a staff record and a taken name', async () => {
    const before = (await listUsers(api.users)).length;
    const account = { username: 'nobody', email: undefined, entityId: studentEntity.entity_id, admin: false };
    const attempts: [Parameters<typeof createUser>[1], RegExp][] = [
      [{ ...account, entityId: '00000000-0000-4000-8000-000000000000' }, /there is no entity/],
      [{ ...account, entityId: organisation.entity_id }, /is an organisation; accounts are for people/],
      [{ ...account, admin: true }, /only for a person with a staff record; .* has: student/],
      [{ ...account, username: 'tomas' }, /Already taken: tomas/],
      [{ ...account, email: 'rita@escola.example' }, /Already taken: rita@escola.example/],
    ];
    for (const [attempt, message] of attempts) {
      const refusal = createUser(accounts, attempt, password);
      await expect(refusal).rejects.toBeInstanceOf(UsageError);
      await expect(refusal).rejects.toThrow(message);
    }
    expectRefused(
      await admin(['users', 'create', '--username', 'nobody', '--entity', organisation.entity_id]),
      /is an organisation/,
    );
    expect((await listUsers(api.users)).length).toBe(before);
  });

  it('list never shows a password hash', async () => {
    const run = await admin(['users', 'list', '--json']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('"rita.admin"');
    expect(run.stdout).not.toContain('password');
    expect(run.stdout).not.toContain('scrypt');
  });

  it('disable, then unlock: active again with the failed sign-ins against it, its username and e-mail forgotten', async () => {
    const run = await admin(['users', 'disable', 'rita.admin']);
    expect(run.code, run.stderr).toBe(0);
    expect((await api.users.byLogin('rita.admin'))?.status).toBe('disabled');

    const rita = await api.users.byLogin('rita.admin');
    const counters = [
      accountThrottleSubject(rita?.user_id as string),
      ...['Rita.Admin', 'rita@escola.example', 'someone-else'].map(nameThrottleSubject),
    ];
    const address = 'address#203.0.113.7';
    for (const subject of [...counters, address]) {
      await api.db.send(
        new PutCommand({
          TableName: api.tableName,
          Item: {
            ...keys.signInThrottle(subject),
            attempts: 5,
            allowed: 5,
            window_started: new Date().toISOString(),
          },
        }),
      );
    }
    const unlocked = await admin(['users', 'unlock', 'RITA@escola.example']);
    expect(unlocked.code, unlocked.stderr).toBe(0);
    expect((await api.users.byLogin('rita.admin'))?.status).toBe('active');
    const remaining = await Promise.all(
      [...counters, address].map(async (subject) => {
        const { Item } = await api.db.send(
          new GetCommand({ TableName: api.tableName, Key: keys.signInThrottle(subject) }),
        );
        return Item !== undefined;
      }),
    );
    expect(remaining).toEqual([false, false, false, true, true]);
  });

  it('sign-out and disable end the sessions and sign-ins started before them', async () => {
    const before = new Date().toISOString();
    const run = await admin(['users', 'sign-out', 'tomas']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('Signed tomas out everywhere');
    expect(Date.parse((await api.users.byLogin('tomas'))?.signed_out_at ?? '')).toBeGreaterThanOrEqual(
      Date.parse(before),
    );
    expectRefused(await admin(['users', 'sign-out', 'nobody']), /there is no account nobody/);
  });

  it("set-password and disable end the person's sign-on sessions and refresh families", async () => {
    /** Signs in through the page in a browser of its own, and exchanges the code for a refresh token. */
    const signedIn = async (username: string, secret: string) => {
      const browser = new CookieJar();
      const { verifier, challenge } = pkce();
      const callback = await completeSignIn(
        authorizeUrl(api.url, { code_challenge: challenge }),
        { username, password: secret },
        browser,
      );
      const tokens = (await (
        await postForm(api, 'token', {
          grant_type: 'authorization_code',
          code: callback.searchParams.get('code') as string,
          code_verifier: verifier,
          redirect_uri: REDIRECT_URI,
          client_id: DEMO_APP_ID,
        })
      ).json()) as { refresh_token: string };
      return { browser, refreshToken: tokens.refresh_token };
    };
    const ended = async ({ browser, refreshToken }: Awaited<ReturnType<typeof signedIn>>) => {
      const silent = authorizeUrl(api.url, { prompt: 'none' });
      const answer = await browser.fetch(silent);
      expect(locationOf(answer, silent).searchParams.get('error')).toBe('login_required');
      const refreshed = await postForm(api, 'token', {
        grant_type: 'refresh_token',
        refresh_token: refreshToken,
        client_id: DEMO_APP_ID,
      });
      expect(refreshed.status).toBe(400);
      expect(((await refreshed.json()) as { error: string }).error).toBe('invalid_grant');
    };

    const rita = await api.users.byLogin('rita.admin');
    const current = 'a passphrase for this test';
    await setPassword(api.users, 'rita.admin', current);
    const before = await signedIn('rita.admin', current);
    // Sessions are compared with the sign-out by the millisecond: let the sign-out come after this one.
    await new Promise((resolve) => setTimeout(resolve, 5));
    const changed = await admin(['users', 'set-password', 'rita.admin', '--password-stdin'], {
      input: 'yet another long passphrase',
    });
    expect(changed.code, changed.stderr).toBe(0);
    await ended(before);

    const next = await signedIn('rita.admin', 'yet another long passphrase');
    await new Promise((resolve) => setTimeout(resolve, 5));
    const disabled = await admin(['users', 'disable', 'rita.admin']);
    expect(disabled.code, disabled.stderr).toBe(0);
    await ended(next);
    await setStatus(api.users, 'rita.admin', 'active');
    await setPassword(api.users, 'rita.admin', password);
    expect((await api.users.get(rita?.user_id as string))?.status).toBe('active');
  });

  it('totp-enroll shows the otpauth URI once and keeps the secret out of list; totp-reset removes it', async () => {
    const run = await admin(['users', 'totp-enroll', 'rita.admin'], { env: { TENANT_NAME: 'Escola Norte' } });
    expect(run.code, run.stderr).toBe(0);
    const uri = new URL(/^otpauth:\/\/\S+$/m.exec(run.stdout)?.[0] as string);
    expect(uri.host).toBe('totp');
    expect(uri.searchParams.get('issuer')).toBe('Escola Norte');
    const secret = uri.searchParams.get('secret') as string;
    expect((await api.users.byLogin('rita.admin'))?.totp_secret).toBe(secret);
    expectRefused(await admin(['users', 'totp-enroll', 'rita.admin']), /totp-reset first/);
    const listed = await admin(['users', 'list', '--json']);
    expect(listed.stdout).not.toContain(secret);
    expect(listed.stdout).toContain('"totp": true');

    const reset = await admin(['users', 'totp-reset', 'rita.admin']);
    expect(reset.code, reset.stderr).toBe(0);
    expect((await api.users.byLogin('rita.admin'))?.totp_secret).toBeUndefined();
  });

  it('enable makes a disabled account active', async () => {
    await setStatus(api.users, 'tomas', 'disabled');
    const run = await admin(['users', 'enable', 'tomas']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('tomas is active.');
    expect((await api.users.byLogin('tomas'))?.status).toBe('active');
    await unlockUser(accounts, 'tomas');
  });

  it('set-password replaces the hash; a short password or an unknown user exits 2 and changes nothing', async () => {
    const next = 'another long passphrase';
    const run = await admin(['users', 'set-password', 'rita.admin', '--password-stdin'], { input: next });
    expect(run.code, run.stderr).toBe(0);
    const hash = (await api.users.byLogin('rita.admin'))?.password_hash;
    expect(await verifySecret(next, hash)).toBe(true);
    expect(await verifySecret(password, hash)).toBe(false);

    expectRefused(
      await admin(['users', 'set-password', 'rita.admin', '--password-stdin'], { input: 'too short\n' }),
      /at least 12 characters/,
    );
    expectRefused(await admin(['users', 'disable', 'no-such-user']), /there is no account no-such-user/);
    expectRefused(
      await admin(['users', 'set-password', 'rita.admin', '--password', next]),
      /Unknown option '--password'/,
    );
    const after = await api.users.byLogin('rita.admin');
    expect(after?.password_hash).toBe(hash);
    expect(after?.status).toBe('active');
  });
});

describe('signing keys, with the API re-reading them every second', () => {
  const kidOf = (token: string) => decodeProtectedHeader(token).kid as string;
  const me = (token: string) => api.get('/api/sso/me', { token });
  const published = async () =>
    (await json<{ keys: { kid: string }[] }>(await api.get('/api/sso/jwks', { token: null }))).keys.map(
      (k) => k.kid,
    );
  let oldKid: string;
  let oldToken: string;
  let newKid: string;

  it('rotate: new tokens carry the new kid, a token issued before still verifies, the JWKS lists both', async () => {
    oldToken = await freshToken();
    oldKid = kidOf(oldToken);
    const run = await admin(['keys', 'rotate']);
    expect(run.code, run.stderr).toBe(0);
    newKid = /Published key (\S+):/.exec(run.stdout)?.[1] as string;
    expect(newKid).toBeDefined();
    expect(newKid).not.toBe(oldKid);
    expect(run.stdout).toContain(`keys retire ${oldKid}`);

    await expect.poll(async () => kidOf(await freshToken()), { timeout: 5000, interval: 200 }).toBe(newKid);
    expect((await me(await freshToken())).status).toBe(200);
    expect((await me(oldToken)).status).toBe(200);
    expect(await published()).toEqual([newKid, oldKid]);
  });

  it('list shows which key signs and when the older one may go', async () => {
    const run = await admin(['keys', 'list', '--json']);
    expect(run.code, run.stderr).toBe(0);
    const [newest, older] = JSON.parse(run.stdout) as Record<string, unknown>[];
    expect(newest).toMatchObject({ kid: newKid, signing: true, newest: true });
    expect(older).toMatchObject({ kid: oldKid, signing: false, superseded_at: expect.any(String) });
    // 900 s tokens, issuers re-reading every second (the environment's), the 31 s publish lead, 5 s tolerance.
    expect(Date.parse(older?.retirable_at as string) - Date.parse(older?.superseded_at as string)).toBe(
      (900 + REFRESH_SECONDS + 31 + 5) * 1000,
    );
  });

  it('retire refuses the newest key, and an old key whose tokens may be in use unless --force', async () => {
    expectRefused(await admin(['keys', 'retire', newKid]), /is the key new tokens are signed with/);
    expectRefused(
      await admin(['keys', 'retire', oldKid]),
      /superseded at .* tokens it signed may be in use until .*ACCESS_TOKEN_TTL_SECONDS=900.*pass --force/,
    );
    expectRefused(await admin(['keys', 'retire', 'no-such-kid', '--force']), /no published key has the kid/);
    expect(await published()).toEqual([newKid, oldKid]);
    expect((await me(oldToken)).status).toBe(200);
  });

  it('retire --force: the old token is refused with 401 once the verifier re-reads; new tokens still work', async () => {
    const run = await admin(['keys', 'retire', oldKid, '--force']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`Retired key ${oldKid}`);
    expect((await api.signingKeys.publicKeys()).map((k) => k.kid)).toEqual([newKid]);
    expect((await api.signingKeys.newestPrivateKey())?.kid).toBe(newKid);

    await expect.poll(async () => (await me(oldToken)).status, { timeout: 5000, interval: 200 }).toBe(401);
    const refused = await me(oldToken);
    expect(refused.headers.get('www-authenticate')).toContain('error="invalid_token"');
    expect((await refused.json()) as { detail: string }).toMatchObject({
      detail: expect.stringContaining('a key this tenant does not publish'),
    });
    expect((await me(await freshToken())).status).toBe(200);
    expect(await published()).toEqual([newKid]);
  });
});

describe('when the tenant cannot be reached', () => {
  it('exits 1 for a table that does not exist, naming it', async () => {
    const run = await admin(['users', 'list'], { env: { TABLE_NAME: 'school-no-such-table' } });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/users list failed: .*school-no-such-table/);
  });

  it('exits 1 when nothing answers at the DynamoDB endpoint', async () => {
    const run = await admin(['clients', 'list'], { env: { DYNAMODB_ENDPOINT: 'http://127.0.0.1:9' } });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/clients list failed: .*ECONNREFUSED/);
  });
});
