// Per-client rate limits over HTTP (issue "client governance", part 4): every answer to a token carries
// the IETF RateLimit header fields (draft-ietf-httpapi-ratelimit-headers-11) with its client's quota; a
// burst from four processes at twice a client's limit is admitted to within 10% of the limit, never
// past it, the rest refused with 429, Retry-After and a problem; a person's token has a budget of its own;
// and the client's usage counts its requests by route group and its refusals. Several limiter instances
// sharing one table are tested in shared/clients/rate-limiter.test.ts.
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClientCreated, ClientUsage } from '../shared/schemas/clients';
import { basic, expectTokens, postForm } from './support/oauth';
import { startTestApi, type TestApi } from './support/test-api';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({ usageFlushSeconds: 0 });
});
afterAll(() => api.stop());

async function clientWithLimit(name: string, rateLimit: number) {
  const response = await api.send('POST', '/api/admin/clients', {
    name,
    scopes: ['students:read', 'https://purl.imsglobal.org/spec/or/v1p2/scope/roster-core.readonly'],
    rate_limit: rateLimit,
  });
  expect(response.status).toBe(201);
  const { client, secret } = (await response.json()) as ClientCreated;
  const tokens = await expectTokens(
    await postForm(
      api,
      'token',
      { grant_type: 'client_credentials' },
      { authorization: basic(client.client_id, secret?.secret as string) },
    ),
  );
  return { clientId: client.client_id, token: tokens.access_token };
}

/** Waits, if need be, until the current UTC minute has at least `seconds` left: a burst stays in one window. */
async function withinOneMinute(seconds: number) {
  const left = 60 - new Date().getUTCSeconds();
  if (left < seconds) await new Promise((resolve) => setTimeout(resolve, left * 1000 + 200));
}

/** Runs `count` GETs of `path` at once from a separate Node process; their statuses. */
function burstFromProcess(path: string, token: string, count: number): Promise<number[]> {
  const script = `
    const [url, token, count] = process.argv.slice(1);
    Promise.all(Array.from({ length: Number(count) }, () =>
      fetch(url, { headers: { authorization: 'Bearer ' + token } }).then(async (r) => { await r.arrayBuffer(); return r.status; })
    )).then((statuses) => process.stdout.write(JSON.stringify(statuses)));`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', script, `${api.url}${path}`, token, String(count)]);
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve(JSON.parse(out) as number[]) : reject(new Error(`burst exited ${code}`)),
    );
  });
}

describe('rate limits', () => {
  it("tells every answer its client's quota and what is left of it", async () => {
    await withinOneMinute(10);
    const { token } = await clientWithLimit('Library', 500);
    const first = await api.get('/api/students?items_per_page=1', { token });
    expect(first.status).toBe(200);
    expect(first.headers.get('ratelimit-policy')).toBe('"per-minute";q=500;w=60');
    expect(first.headers.get('ratelimit')).toMatch(/^"per-minute";r=499;t=([1-9]|[1-5][0-9]|60)$/);
    const second = await api.get('/api/students?items_per_page=1', { token });
    expect(second.headers.get('ratelimit')).toMatch(/^"per-minute";r=498;/);
    // An error after admission carries it too; a request without a token has no client to count.
    const missing = await api.get('/api/students/00000000-0000-4000-8000-000000000000', { token });
    expect(missing.status).toBe(404);
    expect(missing.headers.get('ratelimit')).toMatch(/^"per-minute";r=497;/);
    const anonymous = await api.get('/api/students', { token: null });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('ratelimit')).toBeNull();
  });

  it('admits a burst from four processes at twice the limit to within 10% of it, and never past it', async () => {
    const limit = 80;
    await withinOneMinute(20);
    const { clientId, token } = await clientWithLimit('Nightly sync', limit);
    const statuses = (
      await Promise.all(
        Array.from({ length: 4 }, (_, i) =>
          burstFromProcess(
            i % 2 ? '/ims/oneroster/rostering/v1p2/classes?limit=1' : '/api/students?items_per_page=1',
            token,
            limit / 2,
          ),
        ),
      )
    ).flat();
    const admitted = statuses.filter((status) => status === 200).length;
    expect(statuses.filter((status) => status !== 200 && status !== 429)).toEqual([]);
    expect(admitted).toBeLessThanOrEqual(limit);
    expect(admitted).toBeGreaterThanOrEqual(limit * 0.9);

    const refused = await api.get('/api/students?items_per_page=1', { token });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('content-type')).toBe('application/problem+json');
    expect(refused.headers.get('ratelimit')).toMatch(/^"per-minute";r=0;t=\d+$/);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(await refused.json()).toMatchObject({ status: 429, title: 'Too Many Requests' });
    const oneRoster = await api.get('/ims/oneroster/rostering/v1p2/classes?limit=1', { token });
    expect(oneRoster.status).toBe(429);
    expect(await oneRoster.json()).toMatchObject({ imsx_codeMajor: 'failure', imsx_severity: 'error' });

    // Another client, and a person's token through the demo client, have budgets of their own.
    expect((await api.get('/api/students?items_per_page=1')).status).toBe(200);
    expect((await api.get('/api/sso/me', { token: await api.personToken('student') })).status).toBe(200);

    const usage = (await (await api.get(`/api/admin/clients/${clientId}/usage`)).json()) as ClientUsage;
    expect(usage.rate_limit).toBe(limit);
    const [today] = usage.days;
    expect(today?.total).toBe(admitted);
    // Counted by route group: whichever of the two the budget went to.
    expect(
      Object.keys(today?.requests ?? {}).every((group) => ['students', 'oneroster-classes'].includes(group)),
    ).toBe(true);
    expect(Object.values(today?.requests ?? {}).reduce((sum, n) => sum + n, 0)).toBe(admitted);
    expect(today?.refused).toBe(statuses.length - admitted + 2);
  });

  it("answers a client's usage over 30 days, and 404 for a client that does not exist", async () => {
    const { clientId, token } = await clientWithLimit('Quiet', 100);
    await api.get('/api/students?items_per_page=1', { token });
    const usage = (await (await api.get(`/api/admin/clients/${clientId}/usage`)).json()) as ClientUsage;
    const today = new Date().toISOString().slice(0, 10);
    expect(usage).toMatchObject({ client_id: clientId, to: today, rate_limit: 100 });
    expect((Date.parse(usage.to) - Date.parse(usage.from)) / 86_400_000).toBe(29);
    expect(usage.days).toEqual([{ day: today, requests: { students: 1 }, total: 1, refused: 0 }]);
    expect((await api.get('/api/admin/clients/no-such-client/usage')).status).toBe(404);
  });
});
