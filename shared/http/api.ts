// The one factory every handler goes through: a middy stack that checks query parameters,
// authenticates, calls the handler and turns whatever it returns or throws into the response,
// with one structured access-log line per request. What it needs of the process (configuration,
// logger, token verifier) it is given by the wiring (shared/wiring/api.ts), built on first use.
import middy, { type MiddlewareObj } from '@middy/core';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type { AccessToken } from '../auth/access-token';
import type { TokenVerifier } from '../auth/tokens';
import type { Config } from '../config';
import type { Logger } from '../log';
import type { BusinessCount } from '../metrics';
import type { Route } from '../route';
import { authenticate, bearerToken } from './authenticate';
import type { ErrorDialect } from './dialect';
import { BadRequestError, HttpError, OAuthError, PayloadTooLargeError, UnauthorizedError } from './errors';
import type { ApiHandler, ApiResponse } from './exchange';
import { checkQueryLengths } from './query-limits';
import { quote } from './quote';
import { QueryParams } from './request';
import type { AuditSubject } from './subject';

/** The process's parts the factory uses, each built on first use. */
export interface ApiRuntime {
  config: () => Config;
  logger: () => Logger;
  /** Routes that take a bearer token only; public and client routes carry no verifier. */
  verifier?: () => TokenVerifier;
  /** Routes that check a person's sign-in only (`checksSignIn`): whether a sign-in has been revoked. */
  signIns?: () => { isRevoked(signIn: string): Promise<boolean> };
  /**
   * The error the route answers for one product code threw in its own terms (a domain error); any other
   * error as it is.
   */
  asHttpError?: (error: unknown) => unknown;
  /** How the route's errors are written, by its dialect's kind: the wiring gives those of its routes. */
  dialects: Partial<Record<Route['dialect']['kind'], ErrorDialect>>;
  /**
   * What runs after each request's access log line, whatever its outcome: the route's audit event and its
   * metrics, as the wiring adds them from the route's declared fields.
   */
  observers: readonly RequestObserver[];
}

/** How a request ended, for the observers the wiring adds to its route. */
export interface RequestOutcome {
  event: APIGatewayProxyEventV2;
  requestId: string;
  auth: AccessToken | undefined;
  status: number;
  /** What the request failed with, if it did. */
  error?: unknown;
  /** What the handler said the request touched, or a failure said it still read (a 412's record). */
  touched: AuditSubject | undefined;
  /** The handler's or the refusal's business counts; an observer may add its own for those after it. */
  counts: BusinessCount[];
}

export type RequestObserver = (outcome: RequestOutcome) => void | Promise<void>;

interface ApiContext extends Context {
  auth?: AccessToken;
  query?: QueryParams;
  /** What the handler said it touched, for the audit event. */
  audited?: AuditSubject;
  /** The handler's business counts, for the request's metrics. */
  counts?: BusinessCount[];
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

/** Every response names its request (`x-request-id`), as its access log line and any problem body do. */
const withRequestId = (response: Result, requestId: string): Result => ({
  ...response,
  headers: { ...response.headers, 'x-request-id': requestId },
});

/** Maps errors to responses and writes the access log line. Runs first, so it sees every outcome. */
function respond(route: Route, runtime: ApiRuntime): MiddlewareObj<Event, Result, Error, ApiContext> {
  const started = new WeakMap<object, number>();
  const log = (event: Event, context: ApiContext, status: number) =>
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
  const observe = async (event: Event, context: ApiContext, status: number, error?: unknown) => {
    const outcome: RequestOutcome = {
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
      if (response) request.response = withRequestId(response, requestIdOf(event, context));
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
      request.response = withRequestId(dialect.render(error, errorContext, event), errorContext.requestId);
      if (error instanceof OAuthError) context.counts = error.counts;
      log(event, context, request.response.statusCode ?? 500);
      await observe(event, context, request.response.statusCode ?? 500, error);
    },
  };
}

/** Refuses missing bodies, and bodies over the operation's limit, before anything parses them. */
function limitBody({
  type,
  maxBytes,
}: NonNullable<Route['body']>): MiddlewareObj<Event, Result, Error, ApiContext> {
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

/**
 * Refuses unknown query parameters and over-long ones, then authenticates the caller as the route
 * requires, and where the route says so refuses a person's token whose sign-in has been revoked.
 */
function authorize(
  route: Route,
  { verifier, signIns }: Pick<ApiRuntime, 'verifier' | 'signIns'>,
): MiddlewareObj<Event, Result, Error, ApiContext> {
  const protectedRoute = route.auth.kind === 'scope' || route.auth.kind === 'token';
  if (protectedRoute && !verifier)
    throw new Error(`Route ${route.id} takes a bearer token: give it a verifier`);
  if (route.checksSignIn && !signIns)
    throw new Error(`Route ${route.id} checks sign-ins: give it the sign-in families`);
  const allowed =
    route.query === 'any' || route.ignoreUnknownQuery
      ? undefined
      : new Set([...route.query, ...(protectedRoute ? ['access_token'] : [])]);
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
      checkQueryLengths(query);
      context.query = query;
      const token = protectedRoute ? bearerToken(event, query) : undefined;
      context.auth = verifier ? await authenticate(route.auth, token, verifier()) : undefined;
      const signIn = route.checksSignIn ? context.auth?.person?.signIn : undefined;
      if (signIn !== undefined && signIns && (await signIns().isRevoked(signIn))) {
        throw new UnauthorizedError('The access token is not valid: its sign-in has been revoked.', true);
      }
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
export function createApi(route: Route, handle: ApiHandler, runtime: ApiRuntime) {
  // Authentication comes before the body is read: nobody unauthenticated gets a body parsed.
  const stack = middy<Event, Result, Error, ApiContext>()
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
          ApiContext
        >,
      );
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
