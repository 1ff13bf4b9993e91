// The response checker the integration tests run on every response: it passes responses as the
// description documents them and catches each way a response can drift from it.
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { GatewayExchange } from '../infra/local/api-gateway';
import { recordGroups } from '../shared/domain/groups';
import { openApiDocument } from '../shared/openapi/document';
import { ResponseValidator } from './support/openapi-validator';

const validator = new ResponseValidator(openApiDocument('http://127.0.0.1'));

/** Every response names its request (X-Request-Id), so every exchange here does unless told. */
const exchange = (
  method: string,
  path: string,
  status: number,
  headers: Record<string, string | undefined>,
  body?: unknown,
): GatewayExchange => ({
  method,
  path,
  status,
  headers: Object.fromEntries(
    Object.entries({ 'x-request-id': '9b1deb4d-3b7d-4bad-9bdd-2b0d7b3dcb6d', ...headers }).filter(
      (entry): entry is [string, string] => entry[1] !== undefined,
    ),
  ),
  body: Buffer.from(body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body)),
});

/** What every answer to a token carries: its client's rate limit (draft-ietf-httpapi-ratelimit-headers). */
const admitted = { 'ratelimit-policy': '"per-minute";q=1200;w=60', ratelimit: '"per-minute";r=1199;t=30' };
const json = { 'content-type': 'application/json', 'cache-control': 'no-store', ...admitted };
const problemHeaders = { 'content-type': 'application/problem+json', 'cache-control': 'no-store' };
const problem = (status: number) => ({
  type: 'urn:problem:school-api:x',
  title: 'T',
  status,
  detail: 'D',
  instance: '/api/system',
  request_id: '9b1deb4d-3b7d-4bad-9bdd-2b0d7b3dcb6d',
});
const systemStatus = {
  tenant_id: 'demo',
  tenant_name: 'Demo',
  service: 'school-api',
  version: '0.1.0',
  status: 'ok',
  server_time: '2026-01-01T00:00:00.000Z',
  counts: Object.fromEntries(
    recordGroups.map((group) => [group, group === 'entities' || group === 'students' ? 1 : 0]),
  ),
};
const tokenResponse = { access_token: 'a.b.c', token_type: 'Bearer', expires_in: 900, scope: 'system:read' };
const bearer = { 'www-authenticate': 'Bearer realm="school-api"' };

describe('responses as described', () => {
  it.each([
    ['a success body', exchange('GET', '/api/system', 200, json, systemStatus)],
    [
      'a 401 with its challenge',
      exchange('GET', '/api/system', 401, { ...problemHeaders, ...bearer }, problem(401)),
    ],
    ['a 404 for an id', exchange('GET', '/api/students/x', 404, problemHeaders, problem(404))],
    ['an unknown path', exchange('GET', '/api/nowhere', 404, problemHeaders, problem(404))],
    [
      'a wrong method',
      exchange('PUT', '/api/system', 405, { ...problemHeaders, allow: 'GET' }, problem(405)),
    ],
    ['a token', exchange('POST', '/api/sso/token', 200, { ...json, pragma: 'no-cache' }, tokenResponse)],
    [
      'a gzipped asset',
      {
        ...exchange('GET', '/api/docs/a.js', 200, {
          'content-type': 'text/javascript; charset=utf-8',
          'cache-control': 'public, max-age=60',
          'content-encoding': 'gzip',
        }),
        body: gzipSync('1;'),
      },
    ],
  ])('pass: %s', (_, response) => {
    expect(validator.check(response)).toEqual([]);
  });
});

describe('responses that drift from the description', () => {
  it.each([
    ['an undocumented status', exchange('GET', '/api/system', 418, json, systemStatus), 'status 418'],
    [
      'a 404 where no id is taken',
      exchange('GET', '/api/system', 404, problemHeaders, problem(404)),
      'status 404',
    ],
    [
      'a missing field',
      exchange('GET', '/api/system', 200, json, { ...systemStatus, version: undefined }),
      'version',
    ],
    ['an extra field', exchange('GET', '/api/system', 200, json, { ...systemStatus, extra: 1 }), 'extra'],
    [
      'a field of the wrong type',
      exchange('GET', '/api/system', 200, json, { ...systemStatus, status: 'down' }),
      'status',
    ],
    [
      'a list without its envelope',
      exchange('GET', '/api/students', 200, json, { students: [], page: 1 }),
      'items_per_page',
    ],
    [
      'another content type',
      exchange('GET', '/api/system', 200, { ...json, 'content-type': 'text/plain' }, systemStatus),
      'text/plain',
    ],
    ['a body that is not JSON', exchange('GET', '/api/system', 200, json, '{"tenant_id":'), 'not JSON'],
    [
      'a problem for a success content type',
      exchange('GET', '/api/system', 401, { ...json, ...bearer }, problem(401)),
      'application/json',
    ],
    [
      'a 401 without its challenge',
      exchange('GET', '/api/system', 401, problemHeaders, problem(401)),
      'WWW-Authenticate',
    ],
    [
      'a 403 without insufficient_scope',
      exchange('GET', '/api/system', 403, { ...problemHeaders, ...bearer }, problem(403)),
      'WWW-Authenticate',
    ],
    [
      'a problem without its detail',
      exchange('GET', '/api/students/x', 404, problemHeaders, { ...problem(404), detail: undefined }),
      'detail',
    ],
    [
      'a token that may be cached',
      exchange('POST', '/api/sso/token', 200, { ...json, 'cache-control': 'max-age=60' }, tokenResponse),
      'Cache-Control',
    ],
    [
      'a token error that is a problem',
      exchange('POST', '/api/sso/token', 400, problemHeaders, problem(400)),
      'application/problem+json',
    ],
    ['a success on an unknown path', exchange('GET', '/api/nowhere', 200, json, {}), 'not 404 or 405'],
    ['a 405 without Allow', exchange('PUT', '/api/system', 405, problemHeaders, problem(405)), 'Allow'],
    [
      'a response that does not name its request',
      exchange('GET', '/api/system', 200, { ...json, 'x-request-id': undefined }, systemStatus),
      'X-Request-Id',
    ],
    [
      'a private signing key',
      exchange('GET', '/api/sso/jwks', 200, json, {
        keys: [{ kty: 'EC', crv: 'P-256', x: 'AA', y: 'AA', d: 'AA', kid: 'k', alg: 'ES256', use: 'sig' }],
      }),
      'd',
    ],
  ])('caught: %s', (_, response, expected) => {
    const violations = validator.check(response);
    expect(violations).toHaveLength(1);
    expect(violations[0]).toContain(expected);
  });
});
