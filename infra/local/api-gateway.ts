// A local stand-in for API Gateway (HTTP API): node:http requests become payload v2 events for the
// handler modules the route table names, and their results are written back as API Gateway would.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { register } from 'node:module';
import type { AddressInfo } from 'node:net';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type {
  APIGatewayProxyEventV2,
  APIGatewayProxyResultV2,
  APIGatewayProxyStructuredResultV2,
  Context,
} from 'aws-lambda';
import type { Route } from '../../shared/route';
import { fallbackRoute, matchRoute } from '../../shared/routes';

type Handler = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyResultV2>;

/** API Gateway refuses bodies over 10 MB before they reach a function. */
const MAX_BODY_BYTES = 10 * 1024 * 1024;
const FUNCTION_TIMEOUT_MS = 29_000;
const functionsDir = fileURLToPath(new URL('../../functions/', import.meta.url));
/**
 * The bodies API Gateway (HTTP API, payload 2.0) hands over as text; it base64-encodes every other body,
 * forms (application/x-www-form-urlencoded) and bodies without a content type included.
 */
const TEXT_TYPES = /^(text\/[^;\s]+|application\/(json|xml|javascript))\s*(;|$)/i;

const handlers = new Map<string, Promise<Handler>>();

// Handlers import their static assets as text, which esbuild bundles and Node needs these hooks for.
register('./text-imports.mjs', import.meta.url);

function loadHandler(route: Route): Promise<Handler> {
  let loaded = handlers.get(route.handler);
  if (!loaded) {
    const url = pathToFileURL(`${functionsDir}${route.handler}.ts`).href;
    loaded = import(url).then((module: { handler: Handler }) => module.handler);
    handlers.set(route.handler, loaded);
  }
  return loaded;
}

class BodyTooLarge extends Error {}

/** Whether a request says it has a body: a length above zero, or chunks (RFC 9112 section 6.3). */
const announcesBody = (req: IncomingMessage) =>
  req.headers['transfer-encoding'] !== undefined ||
  (req.headers['content-length'] !== undefined && req.headers['content-length'] !== '0');

/** The body, read with the stream's events: most requests have none, and need no iterator to say so. */
function readBody(req: IncomingMessage): Promise<Buffer> {
  if (!announcesBody(req)) return Promise.resolve(Buffer.alloc(0));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      // Past the limit the rest is read and dropped, so the 413 can be written while it still arrives.
      if (size > MAX_BODY_BYTES) reject(new BodyTooLarge());
      else chunks.push(chunk);
    });
    req.once('end', () => resolve(Buffer.concat(chunks)));
    req.once('error', reject);
  });
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** The payload v2 event of a request; no route means API Gateway's `$default` route. */
export function toEvent(
  req: IncomingMessage,
  body: Buffer,
  route: { method: string; path: string } | undefined,
  params: Record<string, string>,
  url = new URL(req.url ?? '/', 'http://localhost'),
) {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || name === 'cookie') continue;
    headers[name] = Array.isArray(value) ? value.join(',') : value;
  }
  const query: Record<string, string> = {};
  for (const [name, value] of url.searchParams)
    query[name] = name in query ? `${query[name]},${value}` : value;
  const text = body.length === 0 || TEXT_TYPES.test(headers['content-type'] ?? '');
  const now = new Date();
  const routeKey = route ? `${route.method} ${route.path}` : '$default';
  const method = req.method ?? 'GET';
  const event: APIGatewayProxyEventV2 = {
    version: '2.0',
    routeKey,
    rawPath: url.pathname,
    rawQueryString: url.search.slice(1),
    ...(req.headers.cookie ? { cookies: req.headers.cookie.split(/; */) } : {}),
    headers,
    ...(Object.keys(query).length > 0 ? { queryStringParameters: query } : {}),
    ...(Object.keys(params).length > 0
      ? { pathParameters: Object.fromEntries(Object.entries(params).map(([k, v]) => [k, safeDecode(v)])) }
      : {}),
    requestContext: {
      accountId: '000000000000',
      apiId: 'local',
      domainName: headers.host ?? 'localhost',
      domainPrefix: (headers.host ?? 'localhost').split('.')[0] ?? 'localhost',
      http: {
        method,
        path: url.pathname,
        protocol: `HTTP/${req.httpVersion}`,
        sourceIp: req.socket.remoteAddress ?? '127.0.0.1',
        userAgent: headers['user-agent'] ?? '',
      },
      requestId: randomUUID(),
      routeKey,
      stage: '$default',
      time: now.toUTCString(),
      timeEpoch: now.getTime(),
    },
    ...(body.length > 0 ? { body: text ? body.toString('utf8') : body.toString('base64') } : {}),
    isBase64Encoded: !text,
  };
  return event;
}

function lambdaContext(route: Route, requestId: string): Context {
  const deadline = Date.now() + FUNCTION_TIMEOUT_MS;
  const name = `local-${route.id}`;
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName: name,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${name}`,
    memoryLimitInMB: '1024',
    awsRequestId: requestId,
    logGroupName: `/aws/lambda/${name}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

/** A response as the client receives it, for a caller that inspects every one (the tests do). */
export interface GatewayExchange {
  method: string;
  path: string;
  status: number;
  /** Lower-case names. */
  headers: Record<string, string>;
  body: Buffer;
}

export type ResponseInspector = (exchange: GatewayExchange) => void;

/** Writes a function's result back as API Gateway (payload 2.0) does. */
export function write(
  req: IncomingMessage,
  res: ServerResponse,
  result: APIGatewayProxyResultV2,
  inspect: ResponseInspector | undefined,
) {
  const structured: APIGatewayProxyStructuredResultV2 =
    typeof result === 'object' && result !== null && 'statusCode' in result
      ? result
      : { statusCode: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(result) };
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(structured.headers ?? {})) headers[name] = String(value);
  if (structured.cookies?.length) headers['set-cookie'] = structured.cookies;
  const body = structured.body
    ? Buffer.from(structured.body, structured.isBase64Encoded ? 'base64' : 'utf8')
    : Buffer.alloc(0);
  headers['content-length'] = String(body.length);
  const status = structured.statusCode ?? 200;
  inspect?.({
    method: req.method ?? 'GET',
    path: new URL(req.url ?? '/', 'http://localhost').pathname,
    status,
    headers: Object.fromEntries(
      Object.entries(headers).map(([name, value]) => [name.toLowerCase(), String(value)]),
    ),
    body,
  });
  res.writeHead(status, headers);
  res.end(body);
}

function gatewayError(
  req: IncomingMessage,
  res: ServerResponse,
  inspect: ResponseInspector | undefined,
  status: number,
  title: string,
  detail: string,
) {
  const requestId = randomUUID();
  write(
    req,
    res,
    {
      statusCode: status,
      headers: { 'content-type': 'application/problem+json', 'x-request-id': requestId },
      body: JSON.stringify({ type: 'about:blank', title, status, detail, request_id: requestId }),
    },
    inspect,
  );
}

async function handle(req: IncomingMessage, res: ServerResponse, inspect: ResponseInspector | undefined) {
  const url = new URL(req.url ?? '/', 'http://localhost');
  const match = matchRoute(req.method ?? 'GET', url.pathname);
  const route = match.route ?? fallbackRoute;
  let body: Buffer;
  try {
    body = await readBody(req);
  } catch (error) {
    if (error instanceof BodyTooLarge) {
      // The rest of the body is still arriving: answer, then close the connection rather than reuse it.
      res.shouldKeepAlive = false;
      gatewayError(
        req,
        res,
        inspect,
        413,
        'Payload Too Large',
        `The request body exceeds ${MAX_BODY_BYTES} bytes.`,
      );
      req.resume();
      return;
    }
    throw error;
  }
  const event = toEvent(req, body, match.route, match.route ? match.pathParameters : {}, url);
  const handler = await loadHandler(route);
  write(req, res, await handler(event, lambdaContext(route, event.requestContext.requestId)), inspect);
}

export interface LocalApi {
  server: Server;
  url: string;
  close(): Promise<void>;
}

export async function startLocalApi(options: {
  host: string;
  port: number;
  /** Sees every response just before it is sent. */
  inspect?: ResponseInspector | undefined;
}): Promise<LocalApi> {
  // Node refuses a request line and headers past 16 KB with a bare 431 before the service sees them.
  // API Gateway takes 10 KB; the local run takes 64 KB, so an over-long query parameter or token reaches
  // the service and gets its documented 400 or 401, as it would under API Gateway's own limit.
  const server = createServer({ maxHeaderSize: 64 * 1024 }, (req, res) => {
    handle(req, res, options.inspect).catch(() => {
      if (!res.headersSent)
        gatewayError(
          req,
          res,
          options.inspect,
          500,
          'Internal Server Error',
          'The function failed to answer.',
        );
      else res.destroy();
    });
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, resolve);
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    server,
    url: `http://${host}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
