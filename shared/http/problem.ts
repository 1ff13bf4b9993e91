// Turns any error into the response a client sees. Known errors become RFC 9457 problems (or RFC 6749
// bodies at the token endpoint); anything else becomes a bare 500 whose only detail is the request id
// that the log line carries too.
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { HttpError, OAuthError } from './errors';
import type { RequestLogger } from './logger';

export const problemType = (slug: string) => `urn:problem:school-api:${slug}`;

export interface ErrorContext {
  requestId: string;
  instance: string;
  route: string;
  logger: RequestLogger;
}

/** Errors middy's own middlewares raise (http-errors style) that are safe to show. */
interface ExposedHttpError {
  statusCode: number;
  expose: true;
  message: string;
}

export const isExposedHttpError = (error: unknown): error is ExposedHttpError =>
  typeof error === 'object' &&
  error !== null &&
  'statusCode' in error &&
  typeof error.statusCode === 'number' &&
  error.statusCode >= 400 &&
  error.statusCode < 500 &&
  'expose' in error &&
  error.expose === true;

const titles: Record<number, string> = {
  400: 'Bad Request',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
};

export function errorResponse(error: unknown, context: ErrorContext): APIGatewayProxyStructuredResultV2 {
  if (error instanceof OAuthError) {
    return oauthErrorResponse(error);
  }
  if (error instanceof HttpError) {
    return problem(error.status, {
      type: problemType(error.slug),
      title: error.title,
      detail: error.message,
      headers: error.headers,
      extra: { ...error.members, ...(error.invalidParams ? { errors: error.invalidParams } : {}) },
      context,
    });
  }
  if (isExposedHttpError(error)) {
    return problem(error.statusCode, {
      type: problemType('bad-request'),
      title: titles[error.statusCode] ?? 'Bad Request',
      detail: error.message,
      context,
    });
  }
  logFailure(error, context);
  return problem(500, {
    type: problemType('internal-error'),
    title: 'Internal Server Error',
    detail: `The request failed on our side. Quote request id ${context.requestId} when you report it.`,
    context,
  });
}

export function logFailure(error: unknown, context: ErrorContext) {
  context.logger.error('request failed', {
    request_id: context.requestId,
    route: context.route,
    error_name: error instanceof Error ? error.name : typeof error,
    error_message: error instanceof Error ? error.message : undefined,
    stack: error instanceof Error ? error.stack : undefined,
  });
}

function problem(
  status: number,
  p: {
    type: string;
    title: string;
    detail: string;
    headers?: Record<string, string>;
    extra?: Record<string, unknown>;
    context: ErrorContext;
  },
): APIGatewayProxyStructuredResultV2 {
  return {
    statusCode: status,
    headers: { 'content-type': 'application/problem+json', 'cache-control': 'no-store', ...p.headers },
    body: JSON.stringify({
      type: p.type,
      title: p.title,
      status,
      detail: p.detail,
      instance: p.context.instance,
      request_id: p.context.requestId,
      ...p.extra,
    }),
  };
}

export function oauthErrorResponse(error: OAuthError): APIGatewayProxyStructuredResultV2 {
  return {
    statusCode: error.status,
    headers: {
      'content-type': 'application/json',
      'cache-control': 'no-store',
      pragma: 'no-cache',
      ...(error.error === 'invalid_client' ? { 'www-authenticate': 'Basic realm="school-api"' } : {}),
    },
    body: JSON.stringify({ error: error.error, error_description: error.description }),
  };
}
