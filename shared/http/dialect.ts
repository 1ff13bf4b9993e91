// How a route's errors are written, given to the factory (api.ts) by the route's wiring: RFC 9457 problems
// and RFC 6749 error bodies here; the OneRoster binding's and the sign-in pages' beside what they serve.
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { BadRequestError, HttpError, OAuthError } from './errors';
import { type ErrorContext, errorResponse } from './problem';

export interface ErrorDialect {
  /** The response a request that failed with `error` gets. */
  render(
    error: unknown,
    context: ErrorContext,
    event: APIGatewayProxyEventV2,
  ): APIGatewayProxyStructuredResultV2;
}

/** middy's JSON parser reports a malformed body as 415; it is a bad request, in every dialect. */
export function malformedAsBadRequest(error: unknown): unknown {
  const parser = error as { statusCode?: unknown; message?: unknown } | null;
  if (parser?.statusCode === 415 && parser.message === 'Invalid or malformed JSON was provided') {
    return new BadRequestError('The body is not valid JSON.', [
      { name: 'body', in: 'body', reason: 'not valid JSON' },
    ]);
  }
  return error;
}

/** At the token endpoint, every client error is an RFC 6749 error body. */
function asOAuthError(error: unknown): unknown {
  if (error instanceof OAuthError) return error;
  if (error instanceof HttpError && error.status < 500)
    return new OAuthError('invalid_request', error.message, error.status);
  const status = (error as { statusCode?: unknown } | null)?.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return new OAuthError('invalid_request', 'The request body is not valid JSON.', 400);
  }
  return error;
}

export const problemDialect: ErrorDialect = {
  render: (error, context) => errorResponse(malformedAsBadRequest(error), context),
};

export const oauthDialect: ErrorDialect = {
  render: (error, context) => errorResponse(asOAuthError(error), context),
};
