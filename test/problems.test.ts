// Errors as RFC 9457 problems (contract sections 5 and 6): unknown paths and methods, unknown query
// parameters, and malformed requests of every kind get a 4xx problem, never a 500.
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inParallel } from '../infra/cli/in-parallel';
import { routes } from '../shared/routes';
import { expectProblem } from './support/contract';
import { startTestApi, type TestApi } from './support/test-api';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.stop());

/** Sends bytes exactly as given (fetch would normalise the path and headers). */
function raw(method: string, path: string, headers: Record<string, string> = {}, body?: Buffer | string) {
  const { hostname, port } = new URL(api.url);
  return new Promise<{ status: number; headers: Record<string, unknown>; body: string }>(
    (resolve, reject) => {
      const req = httpRequest({ hostname, port, method, path, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
      });
      req.on('error', reject);
      if (body !== undefined) req.write(body);
      req.end();
    },
  );
}

describe('unknown paths and methods', () => {
  it('get a 404 problem', async () => {
    for (const path of [
      '/',
      '/api',
      '/api/',
      '/api/student',
      '/api/students/',
      '/api/students/x/y',
      '/API/students',
    ]) {
      const problem = await expectProblem(await api.get(path), 404);
      expect(problem.instance).toBe(path);
    }
  });

  it('get a 405 problem with the allowed methods', async () => {
    for (const [method, path, allow] of [
      ['PATCH', '/api/students', 'GET, POST'],
      ['PATCH', '/api/students/00000000-0000-4000-8000-000000000000', 'GET, PUT, DELETE'],
      ['POST', '/api/students/deleted', 'GET, PUT, DELETE'],
      ['PUT', '/api/system', 'GET'],
      ['GET', '/api/sso/token', 'POST'],
      ['PATCH', '/api/sso/me', 'GET'],
    ] as const) {
      const response = await fetch(`${api.url}${path}`, { method });
      expect(response.headers.get('allow')).toBe(allow);
      await expectProblem(response, 405);
    }
  });
});

describe('query parameters an operation does not take', () => {
  it('get a 400 problem naming them', async () => {
    const problem = await expectProblem(await api.get('/api/students?item_per_page=10&foo=1'), 400);
    expect(problem.errors?.map((e) => e.name).sort()).toEqual(['foo', 'item_per_page']);
    await expectProblem(await api.get('/api/students/00000000-0000-4000-8000-000000000000?page=1'), 400);
    await expectProblem(await api.get('/api/system?verbose=true'), 400);
  });

  it('past 16 KB of address reach the service and get its 400, not a bare 431 from the server', async () => {
    const long = 'x'.repeat(20_000);
    const problem = await expectProblem(await api.get(`/api/students?processnumber=${long}`), 400);
    expect(problem.errors?.map((e) => e.name)).toEqual(['processnumber']);
    await expectProblem(await api.get(`/api/students?unknown=${long}`), 400);
  });
});

describe('times a feed is asked from', () => {
  it('are refused (400) when they are no instant of the years 0000 to 9999 in UTC, or name a day there is not', async () => {
    for (const since of ['9999-12-31T23:59:59-23:59', '2026-02-30T08:00:00Z', '2026-09-01T08:00:00']) {
      const value = encodeURIComponent(since);
      for (const path of [`/api/students/deleted?since=${value}`, `/api/students?updated_since=${value}`]) {
        const problem = await expectProblem(await api.get(path), 400);
        expect(
          problem.errors?.map((e) => e.name),
          path,
        ).toEqual([path.includes('updated') ? 'updated_since' : 'since']);
      }
    }
    const future = encodeURIComponent('9999-12-31T23:59:59Z');
    expect((await api.get(`/api/students/deleted?since=${future}`)).status).toBe(200);
  });
});

describe('malformed requests never get a 500', () => {
  const token = () => api.token();
  const listPaths = routes.filter((r) => r.method === 'GET' && !r.path.includes('{')).map((r) => r.path);

  it('odd paths, encodings and query strings', async () => {
    const bearer = await token();
    const paths = [
      '/api/students/%',
      '/api/students/%ff%fe',
      '/api/students/%00',
      '/api/students/..%2f..%2fsystem',
      '/api/students/00000000-0000-4000-8000-000000000000%0d%0aX-Injected:%201',
      `/api/students/${'a'.repeat(8000)}`,
      '/api/students?%',
      '/api/students?page=%ff',
      '/api/students?cursor=%00',
      '/api/students?=1',
      '/api/students?&&&',
      `/api/students?cursor=${'%41'.repeat(3000)}`,
      `/api/students?${'a=1&'.repeat(500)}`,
      '/api/students?items_per_page[]=1',
      '/api/students?access_token=',
      '/api/sso/jwks?x=%zz',
      '/api/sso/.well-known/openid-configuration?',
      '//api//students',
      '/api/students;jsessionid=1',
    ];
    for (const path of paths) {
      const response = await raw('GET', path, { authorization: `Bearer ${bearer}` });
      expect(response.status, path).toBeGreaterThanOrEqual(200);
      expect(response.status, `${path} -> ${response.body}`).toBeLessThan(500);
    }
  });

  it('odd headers', async () => {
    const bearer = await token();
    const headerSets: Record<string, string>[] = [
      { authorization: '' },
      { authorization: 'Bearer' },
      { authorization: 'Bearer ' },
      { authorization: `Bearer ${bearer} extra` },
      { authorization: `Bearer ${'x'.repeat(7000)}` },
      { authorization: 'Bearer \u00e9\u00e9' },
      { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
      { authorization: `Bearer ${bearer}`, 'content-length': '0', accept: 'text/html' },
      { authorization: `Bearer ${bearer.split('.').slice(0, 2).join('.')}` },
      { authorization: `Bearer ${Buffer.from('{"alg":"ES256"}').toString('base64url')}.e30.` },
    ];
    const requests = listPaths.flatMap((path) => headerSets.map((headers) => ({ path, headers })));
    // Some seven hundred requests, eight at a time: one after another they took 5 s alone and up to
    // 51 s beside the whole suite on a loaded machine, each waiting its turn at DynamoDB Local.
    await inParallel(requests, 8, async ({ path, headers }) => {
      const response = await raw(
        'GET',
        path,
        Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, Buffer.from(v).toString('latin1')])),
      );
      expect(
        response.status,
        `${path} ${JSON.stringify(headers).slice(0, 80)} -> ${response.body}`,
      ).toBeLessThan(500);
    });
  }, 120_000);

  it('bodies sent where none is expected, and odd bodies at the token endpoint', async () => {
    const bearer = await token();
    const bodies: [string, Buffer | string][] = [
      ['application/json', '{"page": 1}'],
      ['application/json', '{'],
      ['application/octet-stream', Buffer.from([0, 1, 2, 255, 254])],
      ['application/x-www-form-urlencoded', '%%%'],
      ['text/plain', '\u0000\u0001'],
      [
        'multipart/form-data; boundary=x',
        '--x\r\nContent-Disposition: form-data; name="grant_type"\r\n\r\nclient_credentials\r\n--x--',
      ],
    ];
    for (const [contentType, body] of bodies) {
      const get = await raw(
        'GET',
        '/api/students',
        { authorization: `Bearer ${bearer}`, 'content-type': contentType },
        body,
      );
      expect(get.status).toBeLessThan(500);
      const post = await raw('POST', '/api/sso/token', { 'content-type': contentType }, body);
      expect(post.status, `${contentType} -> ${post.body}`).toBeGreaterThanOrEqual(400);
      expect(post.status).toBeLessThan(500);
    }
  });

  it('text that is no Unicode (a lone surrogate, which JSON can escape) gets 400 and changes nothing', async () => {
    const bearer = await token();
    const auth = { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' };
    const [student] = (
      (await (await api.get('/api/students?items_per_page=1')).json()) as {
        students: Record<string, unknown>[];
      }
    ).students as [Record<string, unknown>];
    const { student_id: id, created_at: _c, updated_at: _u, ...fields } = student;
    const path = `/api/students/${id}`;
    // JSON.stringify writes a lone surrogate as its \\u escape, as a client's JSON library does.
    for (const [body, name] of [
      [JSON.stringify({ ...fields, name: 'Ana \ud800 Silva' }), 'body.name'],
      [
        JSON.stringify({
          ...fields,
          addresses: [{ ...((fields.addresses as object[])[0] ?? {}), city: '\udfff' }],
        }),
        'body.addresses[0].city',
      ],
      [JSON.stringify({ ...fields, '\ud83d': 1 }), 'body.\ud83d'],
    ] as const) {
      const put = await raw('PUT', path, auth, body);
      expect(put.status, put.body).toBe(400);
      expect(JSON.parse(put.body).errors?.[0]).toMatchObject({
        in: 'body',
        reason: expect.stringContaining('surrogate'),
      });
      expect(JSON.parse(put.body).errors?.[0]?.name).toBe(name);
    }
    expect(await (await api.get(path)).json()).toEqual(student);
    // A character beyond the first plane is a surrogate pair, well-formed, and stays as it is.
    const put = await raw('PUT', path, auth, JSON.stringify({ ...fields, name: 'Ana 😀 Silva' }));
    expect(put.status, put.body).toBe(200);
    expect(((await (await api.get(path)).json()) as { name: string }).name).toBe('Ana 😀 Silva');
  });

  it('a body larger than the gateway takes gets 413', async () => {
    const response = await raw(
      'POST',
      '/api/sso/token',
      { 'content-type': 'application/json' },
      Buffer.alloc(11 * 1024 * 1024, 32),
    );
    expect(response.status).toBe(413);
  });

  // Some 1,800 requests one after another: seconds on a quiet machine, over 30 s beside the heaviest files.
  it('random bytes in every path segment of every route', async () => {
    const bearer = await token();
    let seed = 1;
    const next = () => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed;
    };
    for (const route of routes) {
      for (let i = 0; i < 15; i++) {
        const junk = Array.from(
          { length: 1 + (next() % 40) },
          () => `%${(next() % 256).toString(16).padStart(2, '0')}`,
        ).join('');
        const path = route.path.includes('{')
          ? route.path.replace(/\{\w+\}/, junk)
          : `${route.path}?page=${junk}`;
        const response = await raw(route.method, path, { authorization: `Bearer ${bearer}` });
        expect(response.status, `${route.method} ${path} -> ${response.body}`).toBeLessThan(500);
      }
    }
  }, 120_000);
});

describe('problem responses', () => {
  it('carry type, title, status, detail, instance and a request id, and no internals', async () => {
    const response = await api.get('/api/students/00000000-0000-4000-8000-000000000000');
    const problem = await expectProblem(response, 404);
    expect(problem.type).toMatch(/^urn:problem:school-api:/);
    expect(problem.request_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(JSON.stringify(problem)).not.toMatch(/stack|Exception|at .*\.ts/);
  });
});
