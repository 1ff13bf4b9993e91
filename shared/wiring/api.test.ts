// The handler factory's last line of defence: an unexpected failure becomes a 500 problem that shows
// nothing but a request id, and the log line carries the same id.
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

beforeAll(() => {
  Object.assign(process.env, {
    TABLE_NAME: 'unused-table',
    TENANT_ID: 'demo',
    TENANT_NAME: 'Demo',
    CURSOR_KEY: 'test-cursor-key-of-at-least-32-characters',
    PUBLIC_BASE_URL: 'http://127.0.0.1:1',
    LOG_LEVEL: 'info',
    DYNAMODB_ENDPOINT: 'http://127.0.0.1:1',
  });
});
afterEach(() => vi.restoreAllMocks());

const event = (requestId: string): APIGatewayProxyEventV2 =>
  ({
    version: '2.0',
    routeKey: 'GET /api/sso/jwks',
    rawPath: '/api/sso/jwks',
    rawQueryString: '',
    headers: {},
    requestContext: { requestId, http: { method: 'GET', path: '/api/sso/jwks' } },
    isBase64Encoded: false,
  }) as unknown as APIGatewayProxyEventV2;

const context = { awsRequestId: 'lambda-id' } as Context;

describe('an unexpected failure (contract section 5)', () => {
  it('answers 500 with only a request id, which the error log line carries too', async () => {
    const { publicApi } = await import('./public-api');
    const { serviceRoute } = await import('../service-routes');
    const lines: string[] = [];
    // Every line goes to stdout; stderr is watched too, so a line written anywhere is seen.
    for (const stream of [process.stdout, process.stderr]) {
      vi.spyOn(stream, 'write').mockImplementation((chunk) => {
        lines.push(String(chunk));
        return true;
      });
    }
    const handler = publicApi(serviceRoute('get-jwks'), async () => {
      throw new Error('ValidationException: One or more parameter values were invalid: secret-table-detail');
    });
    const response = (await handler(event('req-123'), context)) as APIGatewayProxyStructuredResultV2;
    expect(response.statusCode).toBe(500);
    expect(response.headers?.['content-type']).toBe('application/problem+json');
    const body = JSON.parse(response.body ?? '{}');
    expect(body).toMatchObject({ status: 500, title: 'Internal Server Error', request_id: 'req-123' });
    expect(response.body).not.toContain('ValidationException');
    expect(response.body).not.toContain('secret-table-detail');
    expect(response.body).not.toMatch(/\.ts|stack/i);

    const logged = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    const failure = logged.find((line) => line.level === 'error');
    expect(failure).toMatchObject({ request_id: 'req-123', route: 'get-jwks', error_name: 'Error' });
    expect(logged.find((line) => line.message === 'request')).toMatchObject({
      request_id: 'req-123',
      status: 500,
    });
  });
});

describe('business counts', () => {
  it("publish a refusal's counts with its request metrics: a failed client authentication is a sign-in failure", async () => {
    const [
      { createApi },
      { routeById },
      { config, logger },
      { OAuthError },
      { oauthDialect },
      { metricsObserver },
    ] = await Promise.all([
      import('../http/api'),
      import('../routes'),
      import('./context'),
      import('../http/errors'),
      import('../http/dialect'),
      import('./observers'),
    ]);
    const published: { route: string; status: number; counts: readonly unknown[] }[] = [];
    const metrics = () => ({
      request: (route: string, status: number, counts: readonly unknown[]) => {
        published.push({ route, status, counts });
      },
    });
    vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    const route = routeById('create-token');
    const handler = createApi(
      route,
      async () => {
        throw new OAuthError('invalid_client', 'Client authentication failed.', 401, [
          { name: 'SignInFailures', value: 1 },
        ]);
      },
      {
        config,
        logger,
        queryMaxLength: {},
        dialects: { oauth: oauthDialect },
        observers: [metricsObserver(route, metrics)],
      },
    );
    const token = {
      ...event('req-456'),
      routeKey: 'POST /api/sso/token',
      rawPath: '/api/sso/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials',
      requestContext: { requestId: 'req-456', http: { method: 'POST', path: '/api/sso/token' } },
    } as unknown as APIGatewayProxyEventV2;
    const response = (await handler(token, context)) as APIGatewayProxyStructuredResultV2;
    expect(response.statusCode).toBe(401);
    expect(published).toEqual([
      { route: 'create-token', status: 401, counts: [{ name: 'SignInFailures', value: 1 }] },
    ]);
  });
});
