// The administration API over the tenant's OAuth clients (/api/admin/clients): registration with a first
// secret shown once, rotation with two live secrets, revoking one, expiry, disabling (its tokens refused
// within a minute: at once here, where the service re-reads its clients on every request), enabling again,
// the scope it takes, bad input refused with nothing changed, and an audit event for every change.
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_CLIENT_ID } from '../infra/local/bootstrap';
import type { AuditEvent } from '../shared/audit/audit-event';
import type {
  Client,
  ClientCreated,
  ClientSecretCreated,
  ClientSecretSummary,
} from '../shared/schemas/clients';
import { basic, expectOAuthError, expectTokens, postForm } from './support/oauth';
import { startTestApi, type TestApi } from './support/test-api';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({ revocationRefreshSeconds: 0 });
});
afterAll(() => api.stop());

const clients = '/api/admin/clients';

const clientToken = (clientId: string, secret: string) =>
  postForm(api, 'token', { grant_type: 'client_credentials' }, { authorization: basic(clientId, secret) });

async function tokenOf(clientId: string, secret: string): Promise<string> {
  return (await expectTokens(await clientToken(clientId, secret))).access_token;
}

async function register(body: object): Promise<ClientCreated> {
  const response = await api.send('POST', clients, body);
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json()) as ClientCreated;
}

async function listed(): Promise<Client[]> {
  return ((await (await api.get(clients)).json()) as { clients: Client[] }).clients;
}

async function auditEvents(): Promise<AuditEvent[]> {
  return (await readFile(api.auditLogFile, 'utf8'))
    .split('\n')
    .filter(Boolean)
    .map((line) => (JSON.parse(line) as { audit: AuditEvent }).audit);
}

describe('registering a client', () => {
  it('answers its registration and a first secret once; the secret gets a token that reads', async () => {
    const response = await api.send('POST', clients, {
      name: 'Library system',
      scopes: ['students:read', 'teachers:read'],
      rate_limit: 600,
    });
    expect(response.status).toBe(201);
    const created = (await response.json()) as ClientCreated;
    expect(response.headers.get('location')).toBe(`${api.url}${clients}/${created.client.client_id}`);
    expect(created.client).toMatchObject({
      name: 'Library system',
      type: 'confidential',
      status: 'active',
      scopes: ['students:read', 'teachers:read'],
      grant_types: ['client_credentials'],
      rate_limit: 600,
    });
    expect(created.secret?.secret).toMatch(/^[A-Za-z0-9_-]{12}\.[A-Za-z0-9_-]{43}$/);
    const token = await tokenOf(created.client.client_id, created.secret?.secret as string);
    expect((await api.get('/api/students?items_per_page=1', { token })).status).toBe(200);

    const read = await api.get(`${clients}/${created.client.client_id}`);
    expect(await read.json()).toEqual(created.client);
    const all = JSON.stringify(await listed());
    expect(all).toContain(created.client.client_id);
    expect(all).not.toContain(created.secret?.secret);
    expect(all).not.toContain('scrypt');
  });

  it('registers a public client for the code flow, with no secret, and the default rate limit', async () => {
    const { client, secret } = await register({
      name: 'Guardian app',
      type: 'public',
      scopes: ['students:read'],
      redirect_uris: ['https://app.escola.example/callback'],
    });
    expect(secret).toBeUndefined();
    expect(client).toMatchObject({
      type: 'public',
      grant_types: ['authorization_code', 'refresh_token'],
      redirect_uris: ['https://app.escola.example/callback'],
      rate_limit: 1200,
    });
    const refused = await api.send('POST', `${clients}/${client.client_id}/secrets`, {});
    expect(refused.status).toBe(409);
  });

  it.each([
    [{ name: 'X', scope: ['students:read'] }, 'scope', /did you mean scopes/],
    [{ name: 'X', scopes: ['students:delete'] }, 'scopes[0]', /scope the service defines/],
    [{ name: 'X', scopes: [] }, 'scopes', /at least one/],
    [{ name: ' ', scopes: ['students:read'] }, 'name', /1 to 200/],
    [{ name: 'X', scopes: ['students:read'], rate_limit: 0 }, 'rate_limit', /at least 1/],
    [{ name: 'X', scopes: ['students:read'], rate_limit: 1.5 }, 'rate_limit', /whole number/],
    [{ name: 'X', scopes: ['students:read'], type: 'public' }, 'redirect_uris', /needs at least one/],
    [
      { name: 'X', scopes: ['students:read'], type: 'public', grant_types: ['client_credentials'] },
      'grant_types',
      /public client has no secret/,
    ],
    [
      {
        name: 'X',
        scopes: ['students:read'],
        grant_types: ['authorization_code'],
        redirect_uris: ['http://portal.example.org/cb'],
      },
      'redirect_uris[0]',
      /must use https/,
    ],
    [{ name: 'X', scopes: ['students:read'], schools: ['x'] }, 'schools[0]', /UUID/],
    [{ name: 'X', scopes: ['students:read'], schools: [] }, 'schools', /at least one school/],
    [{ name: 'X', scopes: ['students:read'], scopez: [] }, 'scopez', /unknown field/],
  ])('refuses %j with 400 naming %s, registering nothing', async (body, field, reason) => {
    const before = (await listed()).length;
    const response = await api.send('POST', clients, body);
    expect(response.status).toBe(400);
    const problem = (await response.json()) as { errors: { name: string; reason: string }[] };
    expect(problem.errors).toContainEqual(
      expect.objectContaining({ name: field, reason: expect.stringMatching(reason) }),
    );
    expect((await listed()).length).toBe(before);
  });

  it('refuses a body that is not a JSON object, and nothing at all', async () => {
    for (const body of ['[]', '"client"', '{']) {
      const response = await api.send('POST', clients, body);
      expect(response.status).toBe(400);
      await response.body?.cancel();
    }
    expect((await api.send('POST', clients)).status).toBe(400);
  });
});

describe('secrets', () => {
  it('rotate without downtime: two live at once, both work, a third is refused, a revoked one fails', async () => {
    const { client, secret } = await register({ name: 'Transport app', scopes: ['students:read'] });
    const id = client.client_id;
    const first = secret?.secret as string;
    await tokenOf(id, first);

    const response = await api.send('POST', `${clients}/${id}/secrets`, {});
    expect(response.status).toBe(201);
    const second = (await response.json()) as ClientSecretCreated;
    expect(second.status).toBe('live');
    await tokenOf(id, first);
    await tokenOf(id, second.secret);

    const third = await api.send('POST', `${clients}/${id}/secrets`, {});
    expect(third.status).toBe(409);
    expect(await third.text()).toMatch(/revoke one first/);

    const secrets = (
      (await (await api.get(`${clients}/${id}/secrets`)).json()) as { secrets: ClientSecretSummary[] }
    ).secrets;
    expect(secrets.map((s) => s.secret_id)).toEqual([secret?.secret_id, second.secret_id]);
    expect(secrets[0]?.last_used_at).toBeDefined();
    expect(JSON.stringify(secrets)).not.toContain(first.slice(13));

    expect((await api.send('DELETE', `${clients}/${id}/secrets/${secret?.secret_id}`)).status).toBe(204);
    await expectOAuthError(await clientToken(id, first), 401, 'invalid_client');
    await tokenOf(id, second.secret);
    expect((await api.send('DELETE', `${clients}/${id}/secrets/${secret?.secret_id}`)).status).toBe(404);
    // The id of one client's secret does not open another's.
    await expectOAuthError(await clientToken(DEMO_CLIENT_ID, second.secret), 401, 'invalid_client');
  });

  it('expire: an expired secret is refused and no longer counts among the live ones', async () => {
    const { client } = await register({ name: 'Canteen', scopes: ['students:read'] });
    const id = client.client_id;
    const past = await api.send('POST', `${clients}/${id}/secrets`, { expires_at: '2020-01-01T00:00:00Z' });
    expect(past.status).toBe(400);
    const soon = new Date(Date.now() + 4_000).toISOString();
    const expiring = (await (
      await api.send('POST', `${clients}/${id}/secrets`, { expires_at: soon })
    ).json()) as ClientSecretCreated;
    expect(expiring.expires_at).toBe(soon);
    await tokenOf(id, expiring.secret);
    await new Promise((resolve) => setTimeout(resolve, Date.parse(soon) - Date.now() + 100));
    await expectOAuthError(await clientToken(id, expiring.secret), 401, 'invalid_client');
    const secrets = (
      (await (await api.get(`${clients}/${id}/secrets`)).json()) as { secrets: ClientSecretSummary[] }
    ).secrets;
    expect(secrets.map((s) => s.status)).toEqual(['live', 'expired']);
    expect((await api.send('POST', `${clients}/${id}/secrets`, {})).status).toBe(201);
  });

  it("lists an older client's one secret as `initial`, which can be revoked like any other", async () => {
    const secrets = (
      (await (await api.get(`${clients}/${DEMO_CLIENT_ID}/secrets`)).json()) as {
        secrets: ClientSecretSummary[];
      }
    ).secrets;
    expect(secrets).toEqual([expect.objectContaining({ secret_id: 'initial', status: 'live' })]);
  });
});

describe('disabling and enabling a client', () => {
  it('refuses the tokens it holds and new ones; enabled again, it gets new tokens but the old stay refused', async () => {
    const { client, secret } = await register({ name: 'Survey tool', scopes: ['students:read'] });
    const id = client.client_id;
    const held = await tokenOf(id, secret?.secret as string);
    expect((await api.get('/api/students?items_per_page=1', { token: held })).status).toBe(200);

    expect((await api.send('DELETE', `${clients}/${id}`)).status).toBe(204);
    const refused = await api.get('/api/students?items_per_page=1', { token: held });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toContain('its client has been disabled');
    await expectOAuthError(await clientToken(id, secret?.secret as string), 401, 'invalid_client');
    expect(((await (await api.get(`${clients}/${id}`)).json()) as Client).status).toBe('revoked');
    expect((await api.send('DELETE', `${clients}/${id}`)).status).toBe(204);

    // Enabled again by a replace: a new token reads, the one held before stays refused.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const enabled = await api.send('PUT', `${clients}/${id}`, {
      name: 'Survey tool',
      scopes: ['students:read'],
      status: 'active',
    });
    expect(enabled.status).toBe(200);
    const fresh = await tokenOf(id, secret?.secret as string);
    expect((await api.get('/api/students?items_per_page=1', { token: fresh })).status).toBe(200);
    expect((await api.get('/api/students?items_per_page=1', { token: held })).status).toBe(401);
  });

  it('replaces a registration whole, but never its type', async () => {
    const { client } = await register({ name: 'Old name', scopes: ['students:read'], rate_limit: 100 });
    const path = `${clients}/${client.client_id}`;
    const replaced = await api.send('PUT', path, { name: 'New name', scopes: ['teachers:read'] });
    expect(replaced.status).toBe(200);
    expect(await replaced.json()).toMatchObject({
      name: 'New name',
      scopes: ['teachers:read'],
      rate_limit: 1200,
    });
    const retyped = await api.send('PUT', path, {
      name: 'New name',
      scopes: ['teachers:read'],
      type: 'public',
    });
    expect(retyped.status).toBe(409);
    expect(((await (await api.get(path)).json()) as Client).type).toBe('confidential');
  });

  it('answers 404 for a client that does not exist, whatever the operation', async () => {
    const missing = `${clients}/no-such-client`;
    for (const [method, path, body] of [
      ['GET', missing],
      ['PUT', missing, { name: 'X', scopes: ['students:read'] }],
      ['DELETE', missing],
      ['GET', `${missing}/secrets`],
      ['POST', `${missing}/secrets`, {}],
      ['DELETE', `${missing}/secrets/abc`],
      ['GET', `${clients}/${'x'.repeat(300)}`],
    ] as const) {
      const response = await api.send(method, path, body);
      expect(response.status, `${method} ${path}`).toBe(404);
      await response.body?.cancel();
    }
  });
});

describe('who may administer clients', () => {
  it('takes the clients:admin scope: the admin role has it, a token without it gets 403', async () => {
    const narrow = await api.token('students:read');
    expect((await api.get(clients, { token: narrow })).status).toBe(403);
    expect((await api.get(clients, { token: await api.personToken('teacher') })).status).toBe(403);
    expect((await api.get(clients, { token: await api.personToken('admin') })).status).toBe(200);
    expect((await api.get(clients, { token: null })).status).toBe(401);
  });

  it('audits every change, naming the client', async () => {
    const { client } = await register({ name: 'Audited', scopes: ['students:read'] });
    await api.send('POST', `${clients}/${client.client_id}/secrets`, {});
    await api.send('DELETE', `${clients}/${client.client_id}`);
    const events = (await auditEvents()).filter((e) => e.record_ids.includes(client.client_id));
    expect(events.map((e) => [e.route, e.group, e.action, e.outcome])).toEqual([
      ['create-client', 'clients', 'write', 201],
      ['create-client-secret', 'clients', 'write', 201],
      ['delete-client', 'clients', 'write', 204],
    ]);
  });
});
