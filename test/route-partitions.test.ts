// Every route's handler, run over HTTP against DynamoDB, reads only the table partitions its deployed
// function is granted (`partitionsRead`), and only with the actions it is granted: a wrong `reads` row
// in the route table fails here instead of as AccessDenied in a deployed tenant.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DEMO_CLIENT_ID } from '../infra/local/bootstrap';
import { type LocalRun, startLocalRun } from '../infra/local/local-run';
import { keys } from '../shared/data/keys';
import { idFields, type RecordGroup } from '../shared/domain/groups';
import { fallbackRoute, partitionsRead, type Route, routes } from '../shared/routes';
import { startRecordingProxy } from './support/recording-proxy';

const SECRET = 'partitions-secret';
let proxy: Awaited<ReturnType<typeof startRecordingProxy>>;
let run: LocalRun;
let token: string;

const requestToken = () =>
  fetch(`${run.url}/api/sso/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: DEMO_CLIENT_ID,
      client_secret: SECRET,
    }),
  });

const get = (path: string) => fetch(`${run.url}${path}`, { headers: { authorization: `Bearer ${token}` } });

/** A real path for a route: path parameters filled with an existing record's id. */
async function pathFor(route: Route): Promise<string> {
  if (route === fallbackRoute) return '/api/nowhere';
  if (!route.path.includes('{')) return route.path;
  const group = route.handler.split('/')[0] as RecordGroup;
  const list = (await (await get(`/api/${group}?items_per_page=1`)).json()) as Record<
    string,
    Record<string, string>[]
  >;
  const id = list[group]?.[0]?.[idFields[group]] as string;
  return route.path.replace(/\{\w+\}/, id);
}

beforeAll(async () => {
  proxy = await startRecordingProxy(inject('dynamodbEndpoint'));
  run = await startLocalRun({
    host: '127.0.0.1',
    port: 0,
    dynamodbEndpoint: proxy.url,
    tableName: `school-partitions-${randomUUID().slice(0, 8)}`,
    demoClientSecret: SECRET,
  });
  proxy.take();
});
afterAll(async () => {
  await run.stop();
  await proxy.close();
});

describe('what each route reads', () => {
  it('the token endpoint reads the OAuth clients, and locally the private key the table holds', async () => {
    const response = await requestToken();
    expect(response.status).toBe(200);
    token = ((await response.json()) as { access_token: string }).access_token;
    const route = routes.find((r) => r.access === 'sign') as Route;
    // Deployed, the private key comes from Secrets Manager; the local run keeps it in the table.
    const granted = [...partitionsRead(route), keys.privateKeyPartition];
    for (const call of proxy.take()) {
      expect(['GetItem', 'Query']).toContain(call.operation);
      for (const partition of call.partitions) expect(granted).toContain(partition);
    }
  });

  it.each([...routes.filter((r) => r.access !== 'sign'), fallbackRoute].map((r) => [r.id, r] as const))(
    '%s reads only its granted partitions, with GetItem and Query',
    async (_id, route) => {
      const path = await pathFor(route);
      proxy.take();
      const response = await get(path);
      expect(response.status).toBe(route === fallbackRoute ? 404 : 200);
      const calls = proxy.take();
      for (const call of calls) {
        expect(['GetItem', 'Query'], route.id).toContain(call.operation);
        for (const partition of call.partitions) expect(partitionsRead(route), route.id).toContain(partition);
      }
      // And it needs what it declares; public keys are read once a process, so an earlier route read them.
      for (const partition of route.reads.filter((p) => p !== keys.publicKeyPartition)) {
        expect(
          calls.some((call) => call.partitions.includes(partition)),
          `${route.id} reads ${partition}`,
        ).toBe(true);
      }
    },
  );
});
