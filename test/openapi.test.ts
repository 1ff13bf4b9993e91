// The API describes itself (OpenAPI 3.1): the served description lints clean, covers every row of the
// route table with the specification's schema names, scopes and paging limits, and the docs page and
// its assets are served as documented, from the local run and from the Lambda bundles alike.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { get, type IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { lintFromString, loadConfig } from '@redocly/openapi-core';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { esbuildOptions, handlerEntry } from '../infra/bundling';
import { scopes } from '../shared/domain/groups';
import { DEFAULT_ITEMS_PER_PAGE, MAX_ITEMS_PER_PAGE } from '../shared/http/paging';
import { openApiDocument } from '../shared/openapi/document';
import { routes } from '../shared/routes';
import { componentNames } from '../shared/schemas/components';
import { json } from './support/contract';
import { startTestApi, type TestApi } from './support/test-api';

const root = fileURLToPath(new URL('..', import.meta.url));

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.stop());

interface Operation {
  operationId: string;
  security: Record<string, string[]>[];
  parameters: ({ $ref: string } | { name: string; in: string; schema: { format?: string } })[];
  responses: Record<string, unknown>;
}
type Served = ReturnType<typeof openApiDocument> & {
  paths: Record<string, Record<string, Operation>>;
};

function operationOf(document: Served, path: string, method: string): Operation {
  const operation = document.paths[path]?.[method.toLowerCase()];
  if (!operation) throw new Error(`No operation ${method} ${path}`);
  return operation;
}

function rawGet(url: string, headers: Record<string, string>) {
  return new Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    get(url, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }),
      );
    }).on('error', reject);
  });
}

const served = async () => {
  const response = await fetch(`${api.url}/api/openapi.json`);
  expect(response.headers.get('cache-control')).toBe('public, max-age=300');
  return json<Served>(response);
};

describe('GET /api/openapi.json', () => {
  it('serves, without a token, the description generated for this base address', async () => {
    const document = await served();
    expect(document.openapi).toBe('3.1.0');
    expect(document.servers).toEqual([{ url: api.url, description: 'This deployment' }]);
    expect(document).toEqual(JSON.parse(JSON.stringify(openApiDocument(api.url))));
  });

  it('lints clean with the recommended Redocly rules (redocly.yaml)', async () => {
    const config = await loadConfig({ configPath: join(root, 'redocly.yaml') });
    const problems = await lintFromString({
      source: JSON.stringify(await served()),
      absoluteRef: join(root, 'openapi.json'),
      config,
    });
    // .redocly.lint-ignore.yaml marks the few deliberate exceptions, each at its location.
    const found = problems
      .filter((p) => !p.ignored)
      .map((p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`);
    expect(found).toEqual([]);
  });

  it('has one operation per route-table row, with its id, and no other', async () => {
    const { paths } = await served();
    const operations = Object.entries(paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, op]) => `${method.toUpperCase()} ${path} ${op.operationId}`),
    );
    expect(operations.sort()).toEqual(routes.map((r) => `${r.method} ${r.path} ${r.id}`).sort());
  });

  it('names its schemas as the specification does (interface-spec 2.8), every one defined', async () => {
    const document = await served();
    const names = Object.keys(document.components.schemas);
    expect(names.sort()).toEqual([...componentNames].sort());
    for (const name of [
      'EntitiesAddresses',
      'EntitiesContacts',
      'EntityIdentificationDocument',
      'EntityBankAccount',
      'Entity',
      'EntitiesList',
      'Student',
      'StudentsList',
      'Teacher',
      'TeachersList',
      'Tutor',
      'TutorsList',
      'Staff',
      'StaffsList',
      'SystemStatus',
      'OAuthTokenResponse',
      'OAuthMeResponse',
      'ProblemDetails',
      'BadRequestHttpException',
      'NotFoundHttpException',
      'InternalServerErrorHttpException',
      'EntityInsertRequest',
      'StudentInsertRequest',
      'TeacherInsertRequest',
      'TutorInsertRequest',
      'StaffInsertRequest',
      'EntityIdentificationDocumentInsertRequest',
      'StudentIdentificationDocumentInsertRequest',
      'TeacherIdentificationDocumentInsertRequest',
      'TutorIdentificationDocumentInsertRequest',
      'StaffIdentificationDocumentInsertRequest',
    ]) {
      expect(names).toContain(name);
    }
    expect(document.components.schemas.StudentsPage).toMatchObject({
      anyOf: [
        { $ref: '#/components/schemas/StudentsList' },
        { $ref: '#/components/schemas/StudentsChanges' },
        { $ref: '#/components/schemas/StudentsSelection' },
      ],
    });
    const refs = [...JSON.stringify(document).matchAll(/"\$ref":"#\/components\/schemas\/(\w+)"/g)];
    for (const [, name] of refs) expect(names).toContain(name);
    expect(document.paths['/api/students']?.get?.responses).toMatchObject({
      200: { content: { 'application/json': { schema: { $ref: '#/components/schemas/StudentsPage' } } } },
      400: {
        content: {
          'application/problem+json': { schema: { $ref: '#/components/schemas/BadRequestHttpException' } },
        },
      },
      401: { headers: { 'WWW-Authenticate': { required: true } } },
      403: {},
      500: {
        content: {
          'application/problem+json': {
            schema: { $ref: '#/components/schemas/InternalServerErrorHttpException' },
          },
        },
      },
    });
  });

  it('requires the OAuth 2.0 scheme with each operation scope, and says where to get a token', async () => {
    const document = await served();
    const { oauth2 } = document.components.securitySchemes;
    expect(oauth2.flows.clientCredentials.tokenUrl).toBe(`${api.url}/api/sso/token`);
    expect(Object.keys(oauth2.flows.clientCredentials.scopes).sort()).toEqual([...scopes].sort());
    for (const route of routes) {
      const { security } = operationOf(document, route.path, route.method);
      if (route.auth.kind === 'scope') {
        const alternatives = [route.auth.scope, ...(route.auth.or ? [route.auth.or] : [])];
        expect(security, route.id).toEqual(alternatives.map((scope) => ({ oauth2: [scope] })));
      }
      if (route.auth.kind === 'token') expect(security, route.id).toEqual([{ oauth2: [] }]);
      if (route.auth.kind === 'public') expect(security, route.id).toEqual([]);
    }
  });

  it('documents the paging limits the lists enforce, path ids as UUIDs and the access_token parameter', async () => {
    const document = await served();
    expect(document.components.parameters.items_per_page?.schema).toMatchObject({
      minimum: 1,
      maximum: MAX_ITEMS_PER_PAGE,
      default: DEFAULT_ITEMS_PER_PAGE,
    });
    expect(document.components.parameters.page?.schema).toMatchObject({ minimum: 1, default: 1 });
    const list = operationOf(document, '/api/teachers', 'GET');
    expect(list.parameters.map((p) => ('$ref' in p ? p.$ref.split('/').pop() : p.name))).toEqual([
      'page',
      'items_per_page',
      'cursor',
      'updated_since',
      'processnumber',
      'email',
      'ative',
      'fields',
      'access_token',
    ]);
    const get = operationOf(document, '/api/teachers/{teacher_id}', 'GET');
    expect(get.parameters[0]).toMatchObject({ name: 'teacher_id', in: 'path', schema: { format: 'uuid' } });
  });
});

describe('GET /api/docs', () => {
  const assetsOf = (html: string) =>
    [...html.matchAll(/(?:href|src)="(docs\/[^"]+)"/g)].map((m) => m[1] ?? '');

  it('serves the page with its policy, and its assets from this origin, cached for good', async () => {
    const response = await fetch(`${api.url}/api/docs`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('public, max-age=300');
    expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
    const html = await response.text();
    expect(html).not.toMatch(/https?:\/\//);
    const assets = assetsOf(html);
    expect(assets).toHaveLength(3);
    for (const asset of assets) {
      const file = await fetch(`${api.url}/api/${asset}`);
      expect(file.status, asset).toBe(200);
      expect(file.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(file.headers.get('content-type')).toMatch(/^text\/(javascript|css); charset=utf-8$/);
      expect((await file.text()).length).toBeGreaterThan(100);
    }
  });

  it('gzips an asset for a client that takes gzip, and answers 404 for an asset it does not have', async () => {
    const html = await (await fetch(`${api.url}/api/docs`)).text();
    const script = assetsOf(html).find((a) => a.includes('swagger-ui-bundle')) ?? '';
    // fetch would decompress on its own; node:http shows the bytes as sent.
    const { status, headers, body } = await rawGet(`${api.url}/api/${script}`, { 'accept-encoding': 'gzip' });
    expect(status).toBe(200);
    expect(headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(body).toString()).toContain('SwaggerUIBundle');
    expect((await fetch(`${api.url}/api/docs/nothing.js`)).status).toBe(404);
  });

  it('checks every response the tests receive against the description', () => {
    expect(api.responsesChecked()).toBeGreaterThan(10);
  });
});

describe('the docs handlers bundled for Lambda (infra/bundling.ts)', () => {
  const outdir = mkdtempSync(join(tmpdir(), 'school-docs-bundle-'));
  afterAll(() => rmSync(outdir, { recursive: true, force: true }));

  it('bundle the page, its assets and the description, and serve them', async () => {
    const docsRoutes = routes.filter((r) => r.handler.startsWith('docs/'));
    for (const route of docsRoutes) {
      await build({
        ...esbuildOptions,
        mainFields: [...esbuildOptions.mainFields],
        entryPoints: [handlerEntry(route)],
        outfile: join(outdir, route.id, 'index.mjs'),
        logLevel: 'silent',
      });
    }
    const script = join(outdir, 'invoke.mjs');
    writeFileSync(
      script,
      `const event = (path, pathParameters) => ({ version: '2.0', rawPath: path, rawQueryString: '', headers: {},
  pathParameters, requestContext: { requestId: 'r', http: { method: 'GET', path } } });
const call = async (id, path, params) => (await import('./' + id + '/index.mjs')).handler(event(path, params), { awsRequestId: 'r' });
const page = await call('get-docs', '/api/docs');
const name = /docs\\/(swagger-ui-bundle[^"]+)/.exec(page.body)[1];
const asset = await call('get-docs-asset', '/api/docs/' + name, { asset: name });
const description = await call('get-openapi', '/api/openapi.json');
process.stdout.write(JSON.stringify({ page: page.statusCode, asset: [asset.statusCode, asset.body.length],
  servers: JSON.parse(description.body).servers }));`,
    );
    // Its standard error is kept, not printed: execFileSync's error carries it when the script fails.
    const output = execFileSync('node', [script], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        TABLE_NAME: 'school-bundle',
        TENANT_ID: 'demo',
        TENANT_NAME: 'Demo',
        CURSOR_KEY: 'test-cursor-key-of-at-least-32-characters',
        PUBLIC_BASE_URL: 'https://school.example.org',
        LOG_LEVEL: 'silent',
      },
    }).toString();
    const result = JSON.parse(output) as { page: number; asset: [number, number]; servers: unknown };
    expect(result.page).toBe(200);
    expect(result.asset[0]).toBe(200);
    expect(result.asset[1]).toBeGreaterThan(1_000_000);
    expect(result.servers).toEqual([{ url: 'https://school.example.org', description: 'This deployment' }]);
  });
});
