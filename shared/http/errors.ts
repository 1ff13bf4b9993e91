// The errors a request can end in, each carrying its HTTP status. The request checks and handlers throw
// these, code that speaks in its own terms has its errors mapped to them by the route's wiring
// (ApiRuntime.asHttpError), and the route's dialect renders them (problem.ts for RFC 9457 problems).

import type { RequestCount } from './request-count';
import type { AuditSubject } from './subject';

export interface InvalidParam {
  name: string;
  in: 'query' | 'path' | 'header' | 'body';
  reason: string;
}

export class HttpError extends Error {
  /** The person records the failed request still read, for its audit event, when its path says too little. */
  audit?: AuditSubject;

  constructor(
    readonly status: number,
    readonly slug: string,
    readonly title: string,
    detail: string,
    readonly headers: Record<string, string> = {},
    readonly invalidParams?: InvalidParam[],
    /** Extension members of the problem (RFC 9457 section 3.2), beside `errors`. */
    readonly members: Record<string, unknown> = {},
  ) {
    super(detail);
  }
}

export class BadRequestError extends HttpError {
  constructor(detail: string, invalidParams?: InvalidParam[]) {
    super(
      400,
      invalid(invalidParams) ? 'invalid-parameters' : 'bad-request',
      'Bad Request',
      detail,
      {},
      invalidParams,
    );
  }
}

const invalid = (params?: InvalidParam[]) => params !== undefined && params.length > 0;

const bearerChallenge = (params: Record<string, string>) =>
  ['Bearer realm="school-api"', ...Object.entries(params).map(([k, v]) => `${k}="${v}"`)].join(', ');

/** 401: no token, or one we refuse (RFC 6750 section 3). */
export class UnauthorizedError extends HttpError {
  constructor(detail: string, tokenPresented: boolean) {
    super(401, 'unauthorized', 'Unauthorized', detail, {
      'www-authenticate': tokenPresented
        ? bearerChallenge({ error: 'invalid_token', error_description: detail })
        : bearerChallenge({}),
    });
  }
}

/** 403: a valid token that lacks the scope the operation needs. */
export class ForbiddenError extends HttpError {
  constructor(scope: string, alternative?: string) {
    const needs = alternative ? `${scope} or ${alternative}` : scope;
    super(403, 'insufficient-scope', 'Forbidden', `This operation needs the scope ${needs}.`, {
      'www-authenticate': bearerChallenge({
        error: 'insufficient_scope',
        error_description: `needs scope ${scope}`,
        scope,
      }),
    });
  }
}

/** 429: the caller has used its requests of the window; `headers` say when it may go on (Retry-After). */
export class TooManyRequestsError extends HttpError {
  constructor(detail: string, headers: Record<string, string>) {
    super(429, 'too-many-requests', 'Too Many Requests', detail, headers);
  }
}

export class NotFoundError extends HttpError {
  constructor(detail: string) {
    super(404, 'not-found', 'Not Found', detail);
  }
}

export class MethodNotAllowedError extends HttpError {
  constructor(method: string, allowed: string[]) {
    super(
      405,
      'method-not-allowed',
      'Method Not Allowed',
      `${method} is not allowed here; use ${allowed.join(', ')}.`,
      {
        allow: allowed.join(', '),
      },
    );
  }
}

export class PayloadTooLargeError extends HttpError {
  constructor(limitBytes: number) {
    super(413, 'payload-too-large', 'Payload Too Large', `The request body exceeds ${limitBytes} bytes.`);
  }
}

export class UnsupportedMediaTypeError extends HttpError {
  constructor(accepted: string[]) {
    super(
      415,
      'unsupported-media-type',
      'Unsupported Media Type',
      `Send the body as ${accepted.join(' or ')}.`,
    );
  }
}

/**
 * RFC 6749 section 5.2 errors of the token and revocation endpoints (RFC 7009 section 2.2.1 adds
 * unsupported_token_type): rendered as OAuth error bodies, not problems.
 */
export class OAuthError extends Error {
  constructor(
    readonly error:
      | 'invalid_request'
      | 'invalid_client'
      | 'unsupported_grant_type'
      | 'invalid_scope'
      | 'unauthorized_client'
      | 'invalid_grant'
      | 'unsupported_token_type',
    readonly description: string,
    readonly status = error === 'invalid_client' ? 401 : 400,
    /** Counts of the refused request (a failed client authentication), published with its request metrics. */
    readonly counts: RequestCount[] = [],
  ) {
    super(description);
  }
}
