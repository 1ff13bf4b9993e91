// The responses each operation can give, derived in this one place: success bodies from the route row,
// errors from its authentication, parameters and body. The API description is written from these.
import type { Route } from '../routes';
import type { ComponentName } from '../schemas/components';

export const JSON_TYPE = 'application/json';
export const PROBLEM_TYPE = 'application/problem+json';

export interface HeaderSpec {
  description: string;
  required: boolean;
  /** What the value must match, as a regular expression. */
  pattern?: string;
}

export interface ResponseSpec {
  description: string;
  /** Media type to the component its body is, or 'text' for a body of text; no content: no body. */
  content?: Record<string, ComponentName | 'text'>;
  headers?: Record<string, HeaderSpec>;
}

const cacheControl = (pattern?: string): HeaderSpec => ({
  description: 'How long the response may be cached.',
  required: true,
  ...(pattern ? { pattern } : {}),
});

const bearerChallenge = (pattern: string): HeaderSpec => ({
  description: 'The Bearer challenge (RFC 6750 section 3), with the error when a token was sent.',
  required: true,
  pattern,
});

function success(route: Route): Record<string, ResponseSpec> {
  const responses: Record<string, ResponseSpec> = {};
  for (const [status, body] of Object.entries(route.responses)) {
    const headers: Record<string, HeaderSpec> = {
      'Cache-Control': cacheControl(route.auth.kind === 'client' ? '^no-store$' : undefined),
    };
    if (body === 'NoContent') {
      responses[status] = { description: 'Done; no content.', headers };
    } else if (typeof body === 'string') {
      responses[status] = { description: `The ${body}.`, content: { [JSON_TYPE]: body }, headers };
    } else {
      if (body.mediaTypes.includes('text/html')) {
        headers['Content-Security-Policy'] = {
          description: 'What the page may load.',
          required: true,
          pattern: "^default-src 'none'",
        };
      }
      responses[status] = {
        description: `The ${body.mediaTypes.join(' or ')} text.`,
        content: Object.fromEntries(body.mediaTypes.map((type) => [type, 'text'])),
        headers,
      };
    }
  }
  return responses;
}

function errors(route: Route): Record<string, ResponseSpec> {
  const oauth = route.oauthErrors === true;
  const problem = (component: ComponentName) => ({ [PROBLEM_TYPE]: component });
  const responses: Record<string, ResponseSpec> = {
    400: oauth
      ? { description: 'The grant request is not valid.', content: { [JSON_TYPE]: 'OAuthErrorResponse' } }
      : {
          description: 'A parameter is not valid, or the operation does not take it.',
          content: problem('BadRequestHttpException'),
        },
  };
  if (route.auth.kind === 'scope' || route.auth.kind === 'token') {
    responses[401] = {
      description: 'No access token, or one that is not valid.',
      content: problem('ProblemDetails'),
      headers: { 'WWW-Authenticate': bearerChallenge('^Bearer ') },
    };
  }
  if (route.auth.kind === 'client') {
    responses[401] = {
      description: 'Client authentication failed (`invalid_client`).',
      content: { [JSON_TYPE]: 'OAuthErrorResponse' },
      headers: {
        'WWW-Authenticate': { description: 'The Basic challenge.', required: true, pattern: '^Basic ' },
      },
    };
  }
  if (route.auth.kind === 'scope') {
    responses[403] = {
      description: `The access token lacks the scope ${route.auth.scope}.`,
      content: problem('ProblemDetails'),
      headers: { 'WWW-Authenticate': bearerChallenge('^Bearer .*error="insufficient_scope"') },
    };
  }
  if (route.path.includes('{')) {
    responses[404] = { description: 'Nothing has this id.', content: problem('NotFoundHttpException') };
  }
  if (route.requestBody) {
    responses[413] = {
      description: 'The request body is larger than the operation takes.',
      content: oauth
        ? { [JSON_TYPE]: 'OAuthErrorResponse', ...problem('ProblemDetails') }
        : problem('ProblemDetails'),
    };
    if (!oauth) {
      responses[415] = {
        description: 'The request body is not of a media type the operation takes.',
        content: problem('ProblemDetails'),
      };
    }
  }
  responses[500] = {
    description: 'The request failed on the service side.',
    content: problem('InternalServerErrorHttpException'),
  };
  return responses;
}

/** Every response the operation can give, by status. */
export function operationResponses(route: Route): Record<string, ResponseSpec> {
  return { ...success(route), ...errors(route) };
}
