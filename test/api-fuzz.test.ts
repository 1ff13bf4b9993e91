// Schema-driven fuzzing of the whole API (issue 21): every operation of the generated OpenAPI document
// gets boundary and malformed path parameters, query parameters, headers and bodies, sent with a token
// holding every scope. No answer may be a 5xx, have a status its operation does not document, or carry
// a body the description does not allow. The run is bounded in requests and time; its seed is printed,
// and FUZZ_SEED replays one.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GatewayExchange } from '../infra/local/api-gateway';
import { DEMO_CLIENT_ID } from '../infra/local/bootstrap';
import { idFields, recordGroups } from '../shared/domain/groups';
import { openApiDocument } from '../shared/openapi/document';
import { json } from './support/contract';
import { ResponseValidator } from './support/openapi-validator';
import { DEMO_SECRET, startTestApi, type TestApi } from './support/test-api';

/** At most this many requests a run, spread evenly over the operations. */
const MAX_REQUESTS = 3_500;
/** Whatever the clock says, each operation gets this many, spread over its parts, and each part one. */
const MIN_REQUESTS = 4;
/** And at most this long: each operation gets its share of what is left. */
const BUDGET_MS = 40_000;
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : Math.floor(Math.random() * 2 ** 31);

type Schema = Record<string, unknown>;
interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  schema: Schema;
}
interface Operation {
  method: string;
  template: string;
  parameters: Parameter[];
  bodyTypes: string[];
  bodySchema: Schema | undefined;
  /** The field names of what it answers with, for `fields` and `sort` values it takes. */
  fieldNames: string[];
}
interface FuzzRequest {
  method: string;
  path: string;
  query: [string, string][];
  headers: Record<string, string>;
  /** Left out to send the full token. */
  authorization: string | undefined;
  body: string | undefined;
}

const document = openApiDocument('http://127.0.0.1') as unknown as {
  paths: Record<string, Record<string, Schema>>;
  components: { parameters: Record<string, Parameter>; schemas: Record<string, Schema> };
};
const validator = new ResponseValidator(document as never);

const resolve = <T>(value: unknown): T => {
  const ref = (value as { $ref?: string }).$ref;
  if (!ref) return value as T;
  const [, kind = '', name = ''] = ref.split('/').slice(1);
  return (document.components as unknown as Record<string, Record<string, T>>)[kind]?.[name] as T;
};

/** The property names of the records an operation's 200 answer carries: its items' when it is a list. */
function fieldNamesOf(op: Schema): string[] {
  const ok = (op.responses as Record<string, { content?: Record<string, { schema: Schema }> }>)['200'];
  let schema = resolve<Schema | undefined>(Object.values(ok?.content ?? {})[0]?.schema ?? {});
  for (let depth = 0; schema && depth < 3; depth++) {
    const properties = (schema.properties ?? {}) as Record<string, Schema>;
    const list = Object.values(properties).find((p) => p.type === 'array' && p.items);
    const single = Object.values(properties).length === 1 ? Object.values(properties)[0] : undefined;
    const inner = list?.items ?? (single?.$ref ? single : undefined);
    if (!inner) return Object.keys(properties);
    schema = resolve<Schema>(inner);
  }
  return [];
}

const operations: Operation[] = Object.entries(document.paths).flatMap(([template, methods]) =>
  Object.entries(methods).map(([method, op]) => {
    const content = (op.requestBody as { content?: Record<string, { schema: Schema }> } | undefined)?.content;
    return {
      method: method.toUpperCase(),
      template,
      parameters: ((op.parameters as unknown[] | undefined) ?? []).map((p) => resolve<Parameter>(p)),
      bodyTypes: Object.keys(content ?? {}),
      bodySchema: content ? resolve<Schema>(Object.values(content)[0]?.schema) : undefined,
      fieldNames: fieldNamesOf(op),
    };
  }),
);

const LONG = 1_100;
const CLIENT_CREDENTIALS = Buffer.from(`${DEMO_CLIENT_ID}:${DEMO_SECRET}`).toString('base64');
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** Longer than any field allows, and than DynamoDB takes in a key (1,024 bytes), in characters or in bytes. */
const overLong = fc.constantFrom(
  'x'.repeat(LONG),
  'x'.repeat(1_025),
  `${'x'.repeat(LONG)}@example.org`,
  'é'.repeat(600),
  '😀'.repeat(300),
);

/** Strings that break what a naive handler assumes: over-long, empty, odd characters, numbers out of range. */
const hostileString: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: overLong, weight: 4 },
  {
    arbitrary: fc.constantFrom(
      '',
      ' ',
      '\u0000',
      '%',
      "'",
      "sourcedId='x' AND status='active'",
      'a,b,,c',
      '-1',
      '0',
      '99999999999999999999',
      '1e309',
      'NaN',
      'null',
      '[]',
      '{}',
      '9999-12-31T23:59:59.999999999Z',
      '00000000-0000-0000-0000-000000000000',
    ),
    weight: 3,
  },
  { arbitrary: fc.string({ maxLength: 40 }), weight: 1 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 40 }), weight: 1 },
  { arbitrary: fc.string({ unit: 'grapheme', minLength: 200, maxLength: 400 }), weight: 1 },
);

/** What fetch can send as a header value: printable ASCII. */
const headerText = hostileString.map((text) => text.replace(/[^\x20-\x7e]/g, '~'));

interface Context {
  tenant: string;
  /** Ids of records that exist, by the name of their id field, and all of them under `any`. */
  ids: Record<string, string[]>;
  /** Cursors the service issued, by the path of the list that issued them. */
  cursors: Record<string, string[]>;
}

/** Cursors of the shape the service writes, holding what it would never write: positions outside their window, windows run backwards, other tenants and groups. */
const forgedCursors = (context: Context, template: string): fc.Arbitrary<string> => {
  const group = template.split('/')[2] ?? 'students';
  const kind = template.endsWith('/deleted') ? 'deleted' : 'changes';
  const window = fc.record({
    v: fc.constant(1),
    t: fc.oneof({ arbitrary: fc.constant(context.tenant), weight: 5 }, fc.constant('other')),
    g: fc.oneof({ arbitrary: fc.constant(group), weight: 5 }, fc.constantFrom(...recordGroups)),
    k: fc.oneof({ arbitrary: fc.constant(kind), weight: 5 }, fc.constantFrom('changes', 'deleted')),
    s: fc.constantFrom('2026-01-01T00:00:00Z', '2026-03-01T00:00:00Z', '1970-01-01T00:00:00Z'),
    u: fc.constantFrom('2026-02-01T00:00:00Z', '2025-01-01T00:00:00Z', '9999-12-31T23:59:59Z'),
    a: fc.constantFrom(
      '2027-01-01T00:00:00Z#x',
      '1900-01-01T00:00:00Z#x',
      '2026-01-15T00:00:00Z#00000000-0000-0000-0000-000000000000',
      'x',
      '#',
      'z'.repeat(120),
    ),
  });
  const list = fc.record({
    v: fc.constant(1),
    t: fc.constant(context.tenant),
    g: fc.constant(group),
    k: fc.constant('list'),
    p: fc.constantFrom(2, 3, 1_000_000, 2 ** 53 - 1),
    a: fc.constantFrom(
      '00000000-0000-0000-0000-000000000000',
      'ffffffff-ffff-4fff-bfff-ffffffffffff',
      ...(context.ids.any ?? []),
    ),
  });
  const issued = Object.values(context.cursors).flat();
  return fc.oneof(
    { arbitrary: window.map(b64), weight: 6 },
    { arbitrary: list.map(b64), weight: 2 },
    fc.constantFrom(...issued).map((cursor) => `${cursor.slice(0, -2)}AA`),
    fc.constantFrom(...issued),
    fc.jsonValue().map(b64),
    hostileString,
  );
};

/** A value the parameter takes, read off its schema and name, so that the request reaches the code behind it. */
function validValue(
  parameter: Parameter,
  context: Context,
  operation: Operation,
): fc.Arbitrary<string | undefined> {
  const template = operation.template;
  const schema = parameter.schema;
  const word = fc.stringMatching(/^[A-Za-z0-9._-]{1,20}$/);
  if (parameter.in === 'path')
    return fc.constantFrom(...(context.ids[parameter.name] ?? context.ids.any ?? []));
  if (parameter.name === 'access_token') return fc.constant(undefined);
  if (parameter.name === 'cursor') {
    const issued = context.cursors[template];
    return issued ? fc.constantFrom(...issued) : fc.constant(undefined);
  }
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as string[]));
  if (schema.type === 'integer') {
    const min = typeof schema.minimum === 'number' ? schema.minimum : 0;
    const max = typeof schema.maximum === 'number' ? Math.min(schema.maximum, min + 50) : min + 50;
    return fc.integer({ min, max }).map(String);
  }
  if (schema.format === 'date-time') {
    return fc
      .date({ min: new Date(Date.now() - 30 * 86_400_000), max: new Date(), noInvalidDate: true })
      .map((d) => d.toISOString());
  }
  if (typeof schema.pattern === 'string') return fc.stringMatching(new RegExp(schema.pattern));
  const known: Record<string, fc.Arbitrary<string>> = {
    email: fc.emailAddress(),
    ...(operation.fieldNames.length > 0
      ? {
          fields: fc
            .subarray(operation.fieldNames, {
              minLength: 1,
              maxLength: Math.min(3, operation.fieldNames.length),
            })
            .map((names) => names.join(',')),
          sort: fc.constantFrom(...operation.fieldNames),
        }
      : {}),
    filter: fc.constantFrom(
      "status='active'",
      "dateLastModified>'2026-01-01T00:00:00Z'",
      "givenName~'a' AND status!='tobedeleted'",
    ),
    client_id: fc.constant(DEMO_CLIENT_ID),
    scope: fc.constantFrom('openid', 'students:read', 'openid profile'),
  };
  return known[parameter.name] ?? word;
}

/** A value the parameter does not take: the edges of its schema and past them, and hostile strings. */
function hostileValue(parameter: Parameter, context: Context, template: string): fc.Arbitrary<string> {
  const schema = parameter.schema;
  if (parameter.name === 'cursor') return forgedCursors(context, template);
  if (parameter.in === 'path') {
    return fc.oneof(
      fc.uuid().map(String),
      hostileString.filter((text) => text !== '' && text !== '.' && text !== '..'),
    );
  }
  if (schema.type === 'integer') {
    const min = typeof schema.minimum === 'number' ? schema.minimum : 0;
    const max = typeof schema.maximum === 'number' ? schema.maximum : 1_000_000_000;
    return fc.oneof(
      fc.constantFrom(min, min - 1, max, max + 1, 2 ** 53, -(2 ** 31)).map(String),
      fc.integer().map(String),
      fc.constantFrom('1.5', '1e3', '+1', ' 1', '0x10', '١'),
      hostileString,
    );
  }
  if (schema.format === 'date-time') {
    return fc.oneof(
      fc
        .date({ min: new Date('0001-01-01'), max: new Date('9999-12-31'), noInvalidDate: true })
        .map((d) => d.toISOString()),
      fc.constantFrom(
        '2026-13-45T00:00:00Z',
        '2026-02-30T00:00:00Z',
        '2026-01-01',
        '2026-01-01T00:00:00+01:00',
      ),
      hostileString,
    );
  }
  if (parameter.name === 'access_token')
    return fc.oneof(fc.constantFrom('not-a-token', 'a.b.c'), hostileString);
  return hostileString;
}

/** A JSON value of a type other than the schema's. */
const wrongTyped: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  hostileString,
  fc.array(hostileString, { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 8 }), hostileString, { maxKeys: 3 }),
);

/** Bodies for an operation that takes one: its fields with wrong types, malformed JSON and forms, other content types. */
function bodies(operation: Operation): fc.Arbitrary<{ type: string; body: string }> {
  const properties = Object.keys(
    (operation.bodySchema?.properties as Record<string, unknown> | undefined) ??
      Object.assign(
        {},
        ...((operation.bodySchema?.oneOf as Schema[] | undefined) ?? []).map(
          (s) => resolve<Schema>(s).properties ?? {},
        ),
      ),
  );
  const names =
    properties.length > 0 ? properties : ['grant_type', 'client_id', 'token', 'username', 'password'];
  const fields = fc.dictionary(fc.constantFrom(...names), wrongTyped, { maxKeys: names.length });
  return fc.record({
    type: fc.constantFrom(...operation.bodyTypes, 'text/plain', 'application/json'),
    body: fc.oneof(
      fields.map((value) => JSON.stringify(value)),
      fields.map((value) =>
        new URLSearchParams(
          Object.entries(value).map(([k, v]): [string, string] => [
            k,
            typeof v === 'string' ? v : String(JSON.stringify(v)),
          ]),
        ).toString(),
      ),
      fc.jsonValue().map((value) => JSON.stringify(value) ?? 'null'),
      fc.constantFrom('{', '{"a":}', '[1,2', '\u0000', 'true', '""', `{"name":"${'x'.repeat(LONG)}"}`),
      hostileString,
    ),
  });
}

/** What a request breaks: one parameter, its headers, its body, or nothing at all. */
type Target = Parameter | 'headers' | 'body' | 'nothing';

const targetsOf = (operation: Operation): Target[] => [
  ...operation.parameters.filter((p) => p.in !== 'header'),
  'headers',
  ...(operation.bodyTypes.length > 0 ? (['body'] as const) : []),
  'nothing',
];

const describeTarget = (target: Target) =>
  typeof target === 'string' ? target : `${target.in} ${target.name}`;

/** A request to the operation with the target broken and everything else as the operation takes it (or left out). */
const requestFor = (operation: Operation, context: Context, target: Target): fc.Arbitrary<FuzzRequest> => {
  // The other parameters are mostly left out, so that the broken one is what the operation answers about.
  const value = (p: Parameter) =>
    p === target
      ? hostileValue(p, context, operation.template)
      : p.in === 'path'
        ? validValue(p, context, operation)
        : fc.oneof({ arbitrary: fc.constant(undefined), weight: 3 }, validValue(p, context, operation));
  const pathParameters = operation.parameters.filter((p) => p.in === 'path');
  const queryParameters = operation.parameters.filter((p) => p.in === 'query');
  const path = fc
    .tuple(...pathParameters.map(value))
    .map((values) =>
      pathParameters.reduce(
        (at, p, i) => at.replace(`{${p.name}}`, encodeURIComponent(values[i] ?? '')),
        operation.template,
      ),
    );
  const query = fc
    .tuple(
      ...queryParameters.map((p) =>
        value(p).map((v) => (v === undefined ? [] : [[p.name, v] as [string, string]])),
      ),
      // Now and then with the broken parameter repeated, or with one the operation does not take.
      fc.oneof(
        { arbitrary: fc.constant([]), weight: 5 },
        fc
          .tuple(
            fc.constantFrom(
              ...(typeof target === 'object' && target.in === 'query' ? [target.name] : []),
              'unknown',
            ),
            hostileString,
          )
          .map((pair) => [pair]),
      ),
    )
    .map((parts) => parts.flat());
  const headers =
    target === 'headers'
      ? fc.record(
          {
            'idempotency-key': headerText,
            'if-match': fc.constantFrom('*', '"x"', 'W/"x"', '', 'x'.repeat(LONG)),
            'if-none-match': fc.constantFrom('*', '"x"', 'W/"x"', 'x'.repeat(LONG)),
            accept: fc.constantFrom('*/*', 'text/html', 'application/xml', 'x'.repeat(LONG)),
            'accept-language': fc.constantFrom('pt', 'xx', 'x'.repeat(LONG)),
            'content-type': fc.constantFrom('application/json', 'text/plain', 'x'.repeat(LONG)),
          },
          { requiredKeys: [] },
        )
      : fc.constant({});
  const authorization =
    target === 'headers'
      ? fc.option(
          fc.constantFrom(
            'Bearer',
            'Bearer x',
            'Basic',
            `Basic ${CLIENT_CREDENTIALS}`,
            'Basic ###',
            'x'.repeat(LONG),
          ),
          { freq: 2, nil: undefined },
        )
      : fc.constant(undefined);
  const body =
    operation.bodyTypes.length === 0
      ? fc.constant(undefined)
      : target === 'body'
        ? bodies(operation)
        : fc.constant({ type: operation.bodyTypes[0] ?? 'application/json', body: '{}' });
  return fc
    .record({ path, query, headers, authorization, body })
    .map(({ path: at, query: q, headers: h, authorization: a, body: b }) => ({
      method: operation.method,
      path: at,
      query: q,
      headers: { ...(b ? { 'content-type': b.type } : {}), ...h },
      authorization: a,
      body: b?.body,
    }));
};

let api: TestApi;
let context: Context;
beforeAll(async () => {
  api = await startTestApi();
  const system = await json<{ tenant_id: string }>(await api.get('/api/system'));
  const ids: Record<string, string[]> = { any: [] };
  const cursors: Record<string, string[]> = {};
  for (const group of recordGroups) {
    const list = `/api/${group}`;
    for (const query of ['items_per_page=2', 'items_per_page=1&updated_since=2000-01-01T00:00:00Z']) {
      const page = await json<Record<string, unknown>>(await api.get(`${list}?${query}`));
      for (const record of (page[group] as Record<string, unknown>[]) ?? []) {
        const id = record[idFields[group]];
        if (typeof id !== 'string' || ids.any?.includes(id)) continue;
        ids.any?.push(id);
        ids[idFields[group]] = [...(ids[idFields[group]] ?? []), id];
      }
      if (typeof page.next_cursor === 'string') cursors[list] = [...(cursors[list] ?? []), page.next_cursor];
    }
  }
  context = { tenant: system.tenant_id, ids, cursors };
});
afterAll(() => api.stop());

/** Sends one request; what is wrong with its answer, if anything. */
async function exchange(request: FuzzRequest, token: string): Promise<string[]> {
  const url = new URL(`${api.url}${request.path}`);
  for (const [name, value] of request.query) url.searchParams.append(name, value);
  let response: Response;
  try {
    response = await fetch(url, {
      method: request.method,
      redirect: 'manual',
      headers: { ...request.headers, authorization: request.authorization ?? `Bearer ${token}` },
      ...(request.body === undefined ? {} : { body: request.body }),
    });
  } catch (error) {
    // An answer an HTTP client cannot read (headers past its limit, a dropped connection) is no answer.
    const cause = (error as { cause?: unknown }).cause;
    return [`${request.method} ${url.pathname}: no readable answer: ${String(cause ?? error)}`];
  }
  const body = Buffer.from(await response.arrayBuffer());
  const responseHeaders = Object.fromEntries(
    [...response.headers].filter(([name]) => name !== 'content-encoding' && name !== 'content-length'),
  );
  const seen: GatewayExchange = {
    method: request.method,
    path: url.pathname,
    status: response.status,
    headers: responseHeaders,
    body,
  };
  const wrong =
    response.status >= 500
      ? [`${request.method} ${url.pathname} -> ${response.status}: ${body.toString('utf8').slice(0, 300)}`]
      : [];
  return [...wrong, ...validator.check(seen)];
}

const show = (request: FuzzRequest) => {
  const query = new URLSearchParams(request.query).toString();
  const clip = (text: string) => (text.length > 300 ? `${text.slice(0, 300)}…(${text.length} chars)` : text);
  const headers = { ...request.headers, authorization: request.authorization ?? 'Bearer <full token>' };
  return `${request.method} ${clip(request.path + (query ? `?${query}` : ''))} headers=${clip(JSON.stringify(headers))}${request.body === undefined ? '' : ` body=${clip(JSON.stringify(request.body))}`}`;
};

describe('every operation of the API description, fuzzed', () => {
  it(
    'never answers a 5xx, an undocumented status or a body its schema does not allow',
    async () => {
      console.log(`api fuzz seed: ${SEED} (replay with FUZZ_SEED=${SEED})`);
      const token = await api.token();
      const failures: string[] = [];
      const started = Date.now();
      let sent = 0;
      const targets = operations.flatMap((operation) =>
        targetsOf(operation).map((target) => ({ operation, target })),
      );
      const perTarget = Math.max(MIN_REQUESTS, Math.floor(MAX_REQUESTS / targets.length));
      for (const [index, { operation, target }] of targets.entries()) {
        // Each target gets an even share of the time left, and its share of its operation's few requests
        // whatever the clock says.
        const deadline = Date.now() + (BUDGET_MS - (Date.now() - started)) / (targets.length - index);
        const floor = Math.ceil(MIN_REQUESTS / targetsOf(operation).length);
        let runs = 0;
        await fc.assert(
          fc.asyncProperty(requestFor(operation, context, target), async (request) => {
            if (runs++ >= floor && Date.now() > deadline) return;
            sent++;
            for (const problem of await exchange(request, token))
              failures.push(
                `${problem}\n    broken: ${describeTarget(target)}\n    request: ${show(request)}`,
              );
          }),
          { seed: SEED + index, numRuns: perTarget, endOnFailure: true },
        );
      }
      console.log(
        `api fuzz: ${sent} requests over ${operations.length} operations (${targets.length} parts broken in turn) in ${Date.now() - started} ms, ${failures.length} failed`,
      );
      expect(failures, `seed ${SEED}: ${failures.length} of ${sent} requests failed`).toEqual([]);
    },
    // The floor of requests a part is sent whatever the clock says took 85 s on its own here, past the
    // budget, and over 100 s beside the import tests: the time limit leaves it room on a loaded machine.
    BUDGET_MS + 140_000,
  );
});
