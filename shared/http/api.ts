// The one factory every handler goes through: a middy stack that checks query parameters,
// authenticates, calls the handler and turns whatever it returns or throws into the response,
// with one structured access-log line per request. It knows nothing of the service: what it needs
// (configuration, logger, how to authenticate, the dialects, the observers) it is given by the
// service's wiring, built on first use, and it reads of a route only what HttpRoute names.
import middy, { type MiddlewareObj } from '@middy/core';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { bearerToken } from './bearer-token';
import type { ErrorDialect } from './dialect';
import { BadRequestError, HttpError, OAuthError, PayloadTooLargeError } from './errors';
import type { ApiHandler, ApiResponse, Caller } from './exchange';
import type { RequestLogger } from './logger';
import { checkQueryLengths } from './query-limits';
import { quote } from './quote';
import { QueryParams } from './request';
import type { RequestCount } from './request-count';
import type { HttpRoute, RouteBody } from './route';
import type { AuditSubject } from './subject';

/** The process's parts the factory uses, each built on first use. */
export interface ApiRuntime<Auth extends Caller, Config, DialectKind extends string = string> {
  config: () => Config;
  logger: () => RequestLogger;
  /**
   * Routes that take a bearer token only: the caller the token (if any, found as RFC 6750 says) stands
   * for, or an error refusing it. The factory accepts the access_token query parameter on these routes.
   */
  authenticate?: (token: string | undefined) => Promise<Auth>;
  /**
   * Routes that take a bearer token only: whether the authenticated caller may make this request now (its
   * rate limit), answered with the headers every response to the request carries (what budget it has
   * left), or an error refusing it.
   */
  admit?: (auth: Auth) => Promise<Record<string, string>>;
  /** The longest value each query parameter may have, by its name; a longer one is refused with 400. */
  queryMaxLength: Readonly<Record<string, number>>;
  /**
   * The HTTP error that answers an error the service's code threw in its own terms (a domain error);
   * any other error is given back as it is.
   */
  asHttpError?: (error: unknown) => unknown;
  /** How the route's errors are written, by its dialect's kind: the wiring gives those of its routes. */
  dialects: Partial<Record<DialectKind, ErrorDialect>>;
  /**
   * What runs after each request's access log line, whatever its outcome: the route's audit event and its
   * metrics, as the wiring adds them from the route's declared fields.
   */
  observers: readonly RequestObserver<Auth>[];
}

/** How a request ended, for the observers the wiring adds to its route. */
export interface RequestOutcome<Auth extends Caller> {
  event: APIGatewayProxyEventV2;
  requestId: string;
  auth: Auth | undefined;
  status: number;
  /** What the request failed with, if it did. */
  error?: unknown;
  /** What the handler said the request touched, or a failure said it still read (a 412's record). */
  touched: AuditSubject | undefined;
  /** The handler's or the refusal's counts; an observer may add its own for those after it. */
  counts: RequestCount[];
}

export type RequestObserver<Auth extends Caller> = (outcome: RequestOutcome<Auth>) => void | Promise<void>;

interface ApiContext<Auth extends Caller> extends Context {
  auth?: Auth;
  query?: QueryParams;
  /** What the handler said it touched, for the audit event. */
  audited?: AuditSubject;
  /** The handler's counts, for the request's metrics. */
  counts?: RequestCount[];
  /** What the caller's admission adds to every response to the request. */
  admitted?: Record<string, string>;
}

type Event = APIGatewayProxyEventV2;
type Result = APIGatewayProxyStructuredResultV2;

const baseHeaders = {
  'content-type': 'application/json',
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
};

/**
 * The request's id: API Gateway's, which its own logs carry too. A client's X-Request-Id is not taken:
 * the id must name one request only, so that a problem's id finds its log line.
 */
const requestIdOf = (event: Event, context: Context) =>
  event.requestContext?.requestId ?? context.awsRequestId;

/**
 * Every response names its request (`x-request-id`), as its access log line and any problem body do, and
 * carries what the caller's admission said.
 */
const withRequestId = (response: Result, requestId: string, admitted?: Record<string, string>): Result => ({
  ...response,
  headers: { ...admitted, ...response.headers, 'x-request-id': requestId },
});

/** Maps errors to responses and writes the access log line. Runs first, so it sees every outcome. */
function respond<Auth extends Caller, Config>(
  route: HttpRoute,
  runtime: ApiRuntime<Auth, Config>,
): MiddlewareObj<Event, Result, Error, ApiContext<Auth>> {
  const started = new WeakMap<object, number>();
  const log = (event: Event, context: ApiContext<Auth>, status: number) =>
    runtime.logger().info('request', {
      request_id: requestIdOf(event, context),
      route: route.id,
      method: event.requestContext?.http?.method,
      status,
      duration_ms: Math.round((performance.now() - (started.get(context) ?? performance.now())) * 10) / 10,
      client_id: context.auth?.clientId,
      person_id: context.auth?.person?.entityId,
    });
  const dialect = runtime.dialects[route.dialect.kind];
  if (!dialect)
    throw new Error(`Route ${route.id} answers errors as ${route.dialect.kind}: give it that dialect`);
  /** The wiring's observers, in their order, each seeing the counts those before it added. */
  const observe = async (event: Event, context: ApiContext<Auth>, status: number, error?: unknown) => {
    const outcome: RequestOutcome<Auth> = {
      event,
      requestId: requestIdOf(event, context),
      auth: context.auth,
      status,
      error,
      touched: context.audited ?? (error instanceof HttpError ? error.audit : undefined),
      counts: [...(context.counts ?? [])],
    };
    for (const observer of runtime.observers) await observer(outcome);
  };
  return {
    before: ({ context }) => {
      started.set(context, performance.now());
      runtime.logger().beginInvocation(context);
    },
    after: async (request) => {
      const { event, context, response } = request;
      if (response) request.response = withRequestId(response, requestIdOf(event, context), context.admitted);
      log(event, context, response?.statusCode ?? 200);
      await observe(event, context, response?.statusCode ?? 200);
    },
    onError: async (request) => {
      const { event, context } = request;
      const errorContext = {
        requestId: requestIdOf(event, context),
        instance: event.rawPath ?? '',
        route: route.id,
        logger: runtime.logger(),
      };
      const error = runtime.asHttpError ? runtime.asHttpError(request.error) : request.error;
      request.response = withRequestId(
        dialect.render(error, errorContext, event),
        errorContext.requestId,
        context.admitted,
      );
      if (error instanceof OAuthError) context.counts = error.counts;
      log(event, context, request.response.statusCode ?? 500);
      await observe(event, context, request.response.statusCode ?? 500, error);
    },
  };
}

/** Refuses missing bodies, and bodies over the operation's limit, before anything parses them. */
function limitBody<Auth extends Caller>({
  type,
  maxBytes,
}: RouteBody): MiddlewareObj<Event, Result, Error, ApiContext<Auth>> {
  return {
    before: ({ event }) => {
      const body = event.body ?? '';
      if (type === 'json' && body === '') {
        throw new BadRequestError('This operation takes a JSON body.', [
          { name: 'body', in: 'body', reason: 'is required' },
        ]);
      }
      const bytes = event.isBase64Encoded ? Buffer.byteLength(body, 'base64') : Buffer.byteLength(body);
      if (bytes > maxBytes) throw new PayloadTooLargeError(maxBytes);
    },
  };
}

/** A UTF-16 surrogate on its own: text JSON can carry (`"\\ud800"`) that is no Unicode, and no store keeps. */
const LONE_SURROGATE = /\p{Cs}/u;

/**
 * Refuses a JSON body holding a string (a value or a member's name) that is not well-formed Unicode: its
 * lone surrogate would be stored as U+FFFD, the text changed without a word. The body is walked with a
 * stack of its own, so no nesting depth overflows the call stack.
 */
function refuseIllFormedText<Auth extends Caller>(): MiddlewareObj<Event, Result, Error, ApiContext<Auth>> {
  return {
    before: ({ event }) => {
      const pending: [unknown, string][] = [[event.body as unknown, 'body']];
      for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
        const [value, name] = next;
        if (typeof value === 'string') {
          if (LONE_SURROGATE.test(value)) {
            throw new BadRequestError('Text in the body must be well-formed Unicode.', [
              { name, in: 'body', reason: 'holds a lone UTF-16 surrogate, which is no character' },
            ]);
          }
        } else if (value !== null && typeof value === 'object') {
          for (const [key, member] of Object.entries(value)) {
            const at = Array.isArray(value) ? `${name}[${key}]` : `${name}.${key}`;
            pending.push([key, at], [member, at]);
          }
        }
      }
    },
  };
}

/**
 * Refuses unknown query parameters and over-long ones, then authenticates the caller as the route requires
 * and admits it (or not) under its rate limit.
 */
function authorize<Auth extends Caller, Config>(
  route: HttpRoute,
  { authenticate, admit, queryMaxLength }: ApiRuntime<Auth, Config>,
): MiddlewareObj<Event, Result, Error, ApiContext<Auth>> {
  const allowed =
    route.query === 'any' || route.ignoreUnknownQuery
      ? undefined
      : new Set([...route.query, ...(authenticate ? ['access_token'] : [])]);
  return {
    before: async ({ event, context }) => {
      const query = new QueryParams(event.rawQueryString ?? '');
      const unknown = allowed ? query.names().filter((name) => !allowed.has(name)) : [];
      if (allowed && unknown.length > 0) {
        const accepted =
          allowed.size > 0 ? `accepted: ${[...allowed].join(', ')}` : 'this operation takes none';
        throw new BadRequestError(
          `Unknown query parameter ${unknown.map(quote).join(', ')}.`,
          unknown.map((name) => ({
            name: quote(name),
            in: 'query',
            reason: `not a parameter of this operation (${accepted})`,
          })),
        );
      }
      checkQueryLengths(query, queryMaxLength);
      context.query = query;
      if (authenticate) context.auth = await authenticate(bearerToken(event, query));
      if (admit && context.auth) context.admitted = await admit(context.auth);
    },
  };
}

/** A handler's answer as API Gateway takes it, with the headers every answer carries unless it sets its own. */
export function render(response: ApiResponse): Result {
  const status = response.status ?? 200;
  const body = response.rawBody ?? (response.body === undefined ? undefined : JSON.stringify(response.body));
  // A response without a body (204, 304) names no content type.
  const { 'content-type': _json, ...bodilessHeaders } = baseHeaders;
  return {
    statusCode: status,
    headers: { ...(body === undefined ? bodilessHeaders : baseHeaders), ...response.headers },
    ...(body === undefined ? {} : { body }),
    ...(response.isBase64Encoded ? { isBase64Encoded: true } : {}),
    ...(response.cookies ? { cookies: response.cookies } : {}),
  };
}

/** The Lambda handler of a route: `handle` wrapped in the route's checks, error mapping and access log. */
export function createApi<Auth extends Caller, Config, DialectKind extends string>(
  route: HttpRoute<DialectKind>,
  handle: ApiHandler<Auth, Config>,
  runtime: ApiRuntime<Auth, Config, NoInfer<DialectKind>>,
) {
  // Authentication comes before the body is read: nobody unauthenticated gets a body parsed.
  const stack = middy<Event, Result, Error, ApiContext<Auth>>()
    .use(respond(route, runtime))
    .use(authorize(route, runtime));
  if (route.body) {
    stack.use(limitBody(route.body));
    // A form-only body stays text, for the handler to read as a form.
    if (route.body.type !== 'form') {
      stack.use(
        httpJsonBodyParser({ disableContentTypeError: route.body.type === 'form-or-json' }) as MiddlewareObj<
          Event,
          Result,
          Error,
          ApiContext<Auth>
        >,
      );
      stack.use(refuseIllFormedText());
    }
  }
  return stack.handler(async (event, context) => {
    const person = context.auth?.person;
    if (person) runtime.logger().appendKeys({ person_id: person.entityId });
    const response = await handle({
      event,
      body: event.body,
      query: context.query ?? new QueryParams(event.rawQueryString ?? ''),
      path: event.pathParameters ?? {},
      auth: context.auth,
      requestId: requestIdOf(event, context),
      config: runtime.config(),
    });
    context.audited = response.audit;
    context.counts = response.counts;
    return render(response);
  });
}
