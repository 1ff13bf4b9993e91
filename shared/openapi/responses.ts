// The responses each operation can give, derived in this one place: success bodies from the route row,
// errors from its authentication, parameters and body. The API description is written from these.
import { isRecordGroup } from '../domain/groups';
import { takesToken } from '../route';
import type { ComponentName } from '../schemas/components';
import type { DocumentedRoute } from './route-docs';

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

/** Whether a route serves records of a group (and so versions and deletions), not the docs or sso. */
const isRecordRoute = (route: DocumentedRoute) => isRecordGroup(route.handler.split('/')[0] ?? '');
/** A route of a group's own records (`/api/<group>...`), not one of its records' under another's path (a class's register). */
const isGroupRoute = (route: DocumentedRoute) =>
  isRecordRoute(route) && route.path.startsWith(`/api/${route.handler.split('/')[0]}`);

/**
 * The IETF RateLimit header fields (draft-ietf-httpapi-ratelimit-headers), on every answer to a caller
 * its rate limit admitted: required on success, present on the errors that come after admission.
 */
const rateLimitHeaders = (required: boolean): Record<string, HeaderSpec> => ({
  'RateLimit-Policy': {
    description: "The caller's quota policy: `q` requests every `w` seconds (its client's rate limit).",
    required,
    pattern: '^"per-minute";q=[1-9][0-9]*;w=60$',
  },
  RateLimit: {
    description: 'What is left of the quota: `r` requests, for the `t` seconds until the window ends.',
    required,
    pattern: '^"per-minute";r=[0-9]+;t=[1-9][0-9]*$',
  },
});

/** A refusal by rate limit: when to try again, and the quota it exhausted. */
const tooManyRequests = (content: ResponseSpec['content']): ResponseSpec => ({
  description:
    "The caller has used its client's requests of this minute (a client's own token shares the client's " +
    "budget; a person's token has one of its own, at the client's rate): nothing was done.",
  content,
  headers: {
    ...rateLimitHeaders(true),
    'Retry-After': {
      description: 'Seconds until the window ends.',
      required: true,
      pattern: '^[1-9][0-9]*$',
    },
  },
});

const etag: HeaderSpec = {
  description: "The record's version, for If-Match and If-None-Match.",
  required: true,
  pattern: '^"[1-9][0-9]*"$',
};

const location: HeaderSpec = {
  description: 'The address of the record.',
  required: true,
  pattern: '^https?://',
};

const HTML_TYPE = 'text/html';

/** What every response of a page carries, redirects and errors too (shared/auth/html-page.ts). */
const pageHeaders: Record<string, HeaderSpec> = {
  'Cache-Control': cacheControl('^no-store$'),
  'Content-Security-Policy': {
    description: 'What the page may load and where its form may post: its own style sheet, nothing else.',
    required: true,
    pattern: "^default-src 'none';.*frame-ancestors 'none'",
  },
  'X-Frame-Options': { description: 'Never framed.', required: true, pattern: '^DENY$' },
  'Referrer-Policy': {
    description:
      'No Referer to other origins: same-origin on a page with a form (so its POST has an Origin).',
    required: true,
    pattern: '^(no-referrer|same-origin)$',
  },
};

const redirectLocation: HeaderSpec = {
  description: 'Where the browser goes next: the redirect URI registered for the client, with the outcome.',
  required: true,
  pattern: '^[A-Za-z][A-Za-z0-9+.-]*:',
};

const pageErrorDescriptions: Record<number, string> = {
  400:
    'A page saying why: the request names no client or redirect URI registered for it (never redirected ' +
    'to), the sign-in failed (one answer for every reason), or the sign-in form has expired or was used.',
  403: "The form failed the cross-site request forgery check (its token, or an Origin or Referer that is missing or not the service's own): nothing is issued.",
  413: 'The request body is larger than the operation takes.',
  415: 'The body is not a form (application/x-www-form-urlencoded).',
  429: 'Too many failed sign-ins for this account name or from this address: the sign-in page, locked for a while.',
  500: 'The request failed on the service side; the page quotes the id its logs carry.',
};

/** A page's errors: HTML pages with the page headers, a 429 saying when to try again. */
function pageErrors(route: DocumentedRoute, errors: readonly number[]): Record<string, ResponseSpec> {
  const statuses = [400, ...errors, ...(route.requestBody ? [413, 415] : []), 500].sort((a, b) => a - b);
  return Object.fromEntries(
    statuses.map((status) => [
      status,
      {
        description: pageErrorDescriptions[status] ?? '',
        content: { [HTML_TYPE]: 'text' },
        headers: {
          ...pageHeaders,
          ...(status === 429
            ? {
                'Retry-After': {
                  description: 'Seconds until the lock ends.',
                  required: true,
                  pattern: '^[1-9][0-9]*$',
                },
              }
            : {}),
        },
      },
    ]),
  );
}

function success(route: DocumentedRoute): Record<string, ResponseSpec> {
  const responses: Record<string, ResponseSpec> = {};
  for (const [status, body] of Object.entries(route.responses)) {
    const headers: Record<string, HeaderSpec> =
      route.dialect.kind === 'page'
        ? { ...pageHeaders }
        : { 'Cache-Control': cacheControl(route.auth.kind === 'client' ? '^no-store$' : undefined) };
    const oneRecord = isGroupRoute(route) && (route.path.includes('{') || route.access === 'write');
    if (oneRecord && body !== 'NoContent') headers.ETag = etag;
    if (route.access === 'write' && status === '201') headers.Location = location;
    if (route.idempotencyKey && status === '201') {
      headers['Idempotent-Replayed'] = {
        description: 'On a retry with the same Idempotency-Key and body: this is the first response again.',
        required: false,
        pattern: '^true$',
      };
    }
    if (route.dialect.kind === 'imsx' && route.query !== 'any' && route.query.includes('limit')) {
      Object.assign(headers, oneRosterPagingHeaders);
    }
    if (takesToken(route)) Object.assign(headers, rateLimitHeaders(true));
    if (body === 'NoContent') {
      responses[status] = { description: 'Done; no content.', headers };
    } else if (body === 'NotModified') {
      responses[status] = { description: 'The record still has the ETag given in If-None-Match.', headers };
    } else if (body === 'Redirect') {
      responses[status] = {
        description:
          'A redirect to the Location: after a sign-in, back to the client at its redirect URI with a code ' +
          'or an error (RFC 6749 section 4.1.2).',
        headers: { ...headers, Location: redirectLocation },
      };
    } else if (typeof body === 'string') {
      responses[status] = { description: `The ${body}.`, content: { [JSON_TYPE]: body }, headers };
    } else {
      if (body.mediaTypes.includes(HTML_TYPE) && route.dialect.kind !== 'page') {
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

/** A OneRoster collection's paging headers (Rostering REST binding, section 3.4.1). */
const oneRosterPagingHeaders: Record<string, HeaderSpec> = {
  'X-Total-Count': {
    description:
      'How many objects the filter selects; absent where a walk (a filtered or delta read a page at a time) has not counted them: a first page past 2,000 records, or a page asked for with after that is not the last.',
    required: false,
    pattern: '^[0-9]+$',
  },
  Link: {
    description: 'The first, prev, next and last pages (RFC 8288).',
    required: true,
    pattern: '^<[^>]+>; rel="first"',
  },
};

/** A OneRoster route's errors: imsx_StatusInfo bodies with the binding's codeMinor values. */
function oneRosterErrors(route: DocumentedRoute): Record<string, ResponseSpec> {
  const content = { [JSON_TYPE]: 'ImsxStatusInfo' } as const;
  const responses: Record<string, ResponseSpec> = {
    400: {
      description: 'A parameter is not valid (invalid_filter_field, invalid_selection_field, invaliddata).',
      content,
    },
    401: {
      description: 'No access token, or one that is not valid (unauthorisedrequest).',
      content,
      headers: { 'WWW-Authenticate': bearerChallenge('^Bearer ') },
    },
    403: {
      description: 'The access token lacks the scope (forbidden).',
      content,
      headers: { 'WWW-Authenticate': bearerChallenge('^Bearer .*error="insufficient_scope"') },
    },
    500: { description: 'The request failed on the service side (internal_server_error).', content },
  };
  if (route.path.includes('{'))
    responses[404] = { description: 'Nothing has this sourcedId (unknownobject).', content };
  if (route.access === 'write') {
    responses[403] = {
      ...responses[403],
      description:
        'The access token lacks the scope, or its client is limited to some schools and the write would reach past them (forbidden); the latter without WWW-Authenticate.',
      headers: {
        'WWW-Authenticate': { ...bearerChallenge('^Bearer .*error="insufficient_scope"'), required: false },
      },
    };
    responses[409] = {
      description:
        'The write conflicts with other records: an object other records name deleted, or a fixed reference changed (invaliddata).',
      content,
    };
    if (route.method === 'DELETE') {
      responses[412] = { description: 'If-Match names another version than the current one.', content };
    }
  }
  if (route.requestBody) {
    responses[413] = { description: 'The request body is larger than the operation takes.', content };
    responses[415] = { description: 'The request body is not declared JSON (Content-Type).', content };
  }
  responses[429] = tooManyRequests(content);
  return responses;
}

function errors(route: DocumentedRoute): Record<string, ResponseSpec> {
  const { dialect } = route;
  if (dialect.kind === 'page') return pageErrors(route, dialect.errors);
  if (dialect.kind === 'imsx') return oneRosterErrors(route);
  const oauth = dialect.kind === 'oauth';
  const problem = (component: ComponentName) => ({ [PROBLEM_TYPE]: component });
  const responses: Record<string, ResponseSpec> = {
    400: oauth
      ? { description: 'The grant request is not valid.', content: { [JSON_TYPE]: 'OAuthErrorResponse' } }
      : {
          description: 'A parameter is not valid, or the operation does not take it.',
          content: problem('BadRequestHttpException'),
        },
  };
  if (takesToken(route)) {
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
    const lacksScope = `The access token lacks the scope ${route.auth.scope}${route.auth.or ? ` and ${route.auth.or}` : ''}.`;
    const challenge = bearerChallenge('^Bearer .*error="insufficient_scope"');
    // A client registered with schools writes only there, a person only where their roles write
    // (docs/sso.md): their other writes are refused too.
    const schoolWrite = isRecordRoute(route) && route.access === 'write';
    responses[403] = schoolWrite
      ? {
          description: `${lacksScope} Or the token's client is limited to some schools and the write would reach past them (type \`outside-schools\`), or the signed-in person's roles do not write there: a teacher writes the line items, results and attendance of the classes they teach, and nothing else (type \`outside-reach\`); both without WWW-Authenticate.`,
          content: problem('ProblemDetails'),
          headers: { 'WWW-Authenticate': { ...challenge, required: false } },
        }
      : {
          description: lacksScope,
          content: problem('ProblemDetails'),
          headers: { 'WWW-Authenticate': challenge },
        };
  }
  // Userinfo takes any token but releases claims only to a person's token granted openid.
  if (route.path === '/api/sso/userinfo') {
    responses[403] = {
      description: "The access token is a client's own, or was not granted openid.",
      content: problem('ProblemDetails'),
      headers: { 'WWW-Authenticate': bearerChallenge('^Bearer .*error="insufficient_scope"') },
    };
  }
  if (route.path.includes('{')) {
    responses[404] = { description: 'Nothing has this id.', content: problem('NotFoundHttpException') };
  }
  const recordRoute = isGroupRoute(route) && route.path.includes('{');
  if (recordRoute || route.id.startsWith('list-deleted-')) {
    responses[410] = {
      description: recordRoute
        ? 'The record was deleted (in the last 90 days).'
        : '`since` is older than the 90 days deletions are kept, or what a person may read of the group ' +
          'changed after it: list the group again.',
      content: problem('ProblemDetails'),
    };
  }
  if (route.access === 'write') {
    responses[409] = {
      description:
        'The write conflicts with other records: a processnumber taken, an entity with roles or a student in ' +
        "a tutor's care deleted, a record moved to another entity, a record full of documents, or other " +
        'requests changing the same records throughout (send it again). A ' +
        'processnumber clash names the record holding it: its id as a member of the problem (such as ' +
        '`student_id`) and its address in `Location`.',
      content: problem('ProblemDetails'),
      headers: {
        Location: { description: 'The record holding the processnumber, on a clash.', required: false },
      },
    };
    if (route.path.includes('{')) {
      responses[412] = {
        description: 'If-Match names another version than the current one.',
        content: problem('ProblemDetails'),
        headers: { ETag: etag },
      };
    }
  }
  if (route.idempotencyKey) {
    responses[422] = {
      description: 'The Idempotency-Key was used with another request body in the last 24 hours.',
      content: problem('ProblemDetails'),
    };
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
  if (takesToken(route)) responses[429] = tooManyRequests(problem('ProblemDetails'));
  responses[500] = {
    description: 'The request failed on the service side.',
    content: problem('InternalServerErrorHttpException'),
  };
  return responses;
}

const requestId: HeaderSpec = {
  description:
    "The request's id, which its access log line and any problem body (`request_id`) carry too: quote it " +
    'when reporting a failure.',
  required: true,
};

/** Every response the operation can give, by status; each names its request. */
export function operationResponses(route: DocumentedRoute): Record<string, ResponseSpec> {
  const responses = { ...success(route), ...errors(route) };
  // An error after the caller was admitted carries its quota too; one before (no token) cannot.
  const admitted = takesToken(route) ? rateLimitHeaders(false) : {};
  return Object.fromEntries(
    Object.entries(responses).map(([status, spec]) => [
      status,
      { ...spec, headers: { ...admitted, ...spec.headers, 'X-Request-Id': requestId } },
    ]),
  );
}
