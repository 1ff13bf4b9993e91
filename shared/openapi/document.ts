// The OpenAPI 3.1 description of the API, written from the route table and the component registry:
// every operation with its parameters, scope, request body and responses. Served at /api/openapi.json.
import packageJson from '../../package.json' with { type: 'json' };
import {
  documentGroups,
  groups,
  isRecordGroup,
  oneRosterScopes,
  type RecordGroup,
  readScope,
  recordGroups,
  type Scope,
  scopeName,
  sensitiveScope,
  writeScope,
} from '../domain/groups';
import { LIMITS } from '../domain/limits';
import { DEFAULT_ITEMS_PER_PAGE, MAX_ITEMS_PER_PAGE, MAX_PAGE } from '../http/paging';
import { DEFAULT_LIMIT, MAX_LIMIT } from '../oneroster/collection-query';
import { QUERY_MAX_LENGTH } from '../query-limits';
import { takesToken } from '../route';
import { componentJsonSchemas } from '../schemas/components';
import { groupAbout } from './group-about';
import { JSON_TYPE, operationResponses, type ResponseSpec } from './responses';
import { type DocumentedRoute, documentedRoutes } from './route-docs';

/** The record groups under each scope name, in the order of the groups: one group, or a family (the gradebook's). */
const scopeFamilies = [...new Set(recordGroups.map(scopeName))].map(
  (name) => recordGroups.filter((group) => scopeName(group) === name) as [RecordGroup, ...RecordGroup[]],
);

/** What a family's groups are called: "students", or "categories and score scales". */
const inWords = (family: readonly RecordGroup[]) => {
  const plurals = family.map((group) => groups[group].plural);
  return plurals.length > 1 ? `${plurals.slice(0, -1).join(', ')} and ${plurals.at(-1)}` : plurals.join('');
};

const scopeDescriptions = Object.fromEntries([
  ...scopeFamilies.map((family) => [readScope(family[0]), `Read ${inWords(family)}`]),
  ...scopeFamilies.map((family) => [writeScope(family[0]), `Create, replace and delete ${inWords(family)}`]),
  ['system:read', 'Read the tenant information and record counts'],
  [
    'clients:admin',
    "Register, change and disable the tenant's OAuth clients and their secrets, and read their usage",
  ],
  [
    'webhooks:manage',
    "Subscribe the caller's client to change events, rotate their signing secret, read their deliveries and replay them",
  ],
  ...documentGroups.map((group) => [
    sensitiveScope(group),
    `Read the identification-document and bank-account numbers of ${groups[group].plural} unmasked; ` +
      'without it they read as `****` and their last four characters',
  ]),
  [oneRosterScopes.roster, 'OneRoster 1.2: read every rostering collection but demographics'],
  [oneRosterScopes.core, 'OneRoster 1.2: read the core rostering collections'],
  [oneRosterScopes.demographics, 'OneRoster 1.2: read demographics'],
  [oneRosterScopes.gradebook, 'OneRoster 1.2: read every gradebook collection'],
  [oneRosterScopes.gradebookCore, "OneRoster 1.2: read the gradebook's core collections"],
  [oneRosterScopes.gradebookCreatePut, 'OneRoster 1.2: create or replace categories, line items and results'],
  [oneRosterScopes.gradebookCreatePost, "OneRoster 1.2: post a line item's results at once"],
  [oneRosterScopes.gradebookDelete, 'OneRoster 1.2: delete categories, line items and results'],
  [oneRosterScopes.assessment, 'OneRoster 1.2: read assessment line items and results'],
  [oneRosterScopes.assessmentCreatePut, 'OneRoster 1.2: create or replace assessment line items and results'],
  [oneRosterScopes.assessmentDelete, 'OneRoster 1.2: delete assessment line items and results'],
]) as Record<Scope, string>;

const tagDescriptions: Record<string, string> = {
  // A group's routes are tagged by its scopes' name: one tag for the groups of a family (the gradebook's).
  ...Object.fromEntries(
    scopeFamilies.map((family) => [scopeName(family[0]), family.map((group) => groupAbout[group]).join(' ')]),
  ),
  system: 'The tenant and the health of the service.',
  sso:
    'OAuth 2.0 tokens (client_credentials; authorization_code with PKCE and rotating refresh tokens for ' +
    "people's sign-in), their revocation, the signing keys and the discovery document.",
  docs: 'This description and the page that shows it.',
  admin:
    "The tenant's OAuth clients as its administrators govern them: registration, secrets (two live at " +
    'once, to rotate without downtime), disabling, and usage (docs/sso.md).',
  webhooks:
    "Change events pushed to the caller's client: subscriptions, signed deliveries (Standard Webhooks), " +
    'their attempts, and replay of the kept events (docs/events.md).',
  oneroster:
    'The OneRoster 1.2 Rostering REST binding (read-only) over the same records, under ' +
    '/ims/oneroster/rostering/v1p2, with imsx_StatusInfo errors (docs/oneroster.md).',
};

/**
 * The tag of an operation: the first path segment after /api (RFC 8414's metadata path ends in the
 * issuer's, /api/sso), for a record group its scopes' name, the description itself under docs, and the OneRoster binding's under oneroster.
 */
function tagOf(route: DocumentedRoute): string {
  if (route.dialect.kind === 'imsx') return 'oneroster';
  const segment = route.path.split('/api/')[1]?.split('/')[0] ?? '';
  const tag = segment === 'openapi.json' ? 'docs' : isRecordGroup(segment) ? scopeName(segment) : segment;
  if (!(tag in tagDescriptions)) throw new Error(`Route ${route.id}: no tag description for ${tag}`);
  return tag;
}

const ref = (kind: 'schemas' | 'parameters', name: string) => ({ $ref: `#/components/${kind}/${name}` });

const queryParameters: Record<string, Record<string, unknown>> = {
  limit: {
    name: 'limit',
    in: 'query',
    description: `OneRoster: how many objects a page holds at most; above ${MAX_LIMIT}, ${MAX_LIMIT}.`,
    schema: { type: 'integer', minimum: 1, default: DEFAULT_LIMIT },
  },
  offset: {
    name: 'offset',
    in: 'query',
    description: 'OneRoster: how many of the selected objects to skip.',
    schema: { type: 'integer', minimum: 0, default: 0 },
  },
  after: {
    name: 'after',
    in: 'query',
    description:
      'OneRoster: where the page starts, which the `next` link carries so that following it costs one ' +
      'page (docs/oneroster.md): the sourcedId before it, in a collection read in sourcedId order (no ' +
      '`sort` but sourcedId ascending, filtered or not); or `<dateLastModified>#<sourcedId>`, in a ' +
      '`dateLastModified>` delta read in change order (no `sort` but dateLastModified ascending).',
    schema: {
      type: 'string',
      pattern:
        '^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}|' +
        '[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]{1,9})?Z#' +
        '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})$',
    },
  },
  sort: {
    name: 'sort',
    in: 'query',
    description:
      'OneRoster: the field to sort by (a dotted path into objects and arrays); sourcedId by default.',
    schema: { type: 'string' },
  },
  orderBy: {
    name: 'orderBy',
    in: 'query',
    description: 'OneRoster: ascending or descending `sort`.',
    schema: { type: 'string', enum: ['asc', 'desc'], default: 'asc' },
  },
  filter: {
    name: 'filter',
    in: 'query',
    description:
      "OneRoster: `field<op>'value'` with =, !=, >, >=, <, <= or ~ (contains), or two joined by one AND or " +
      "OR. `dateLastModified>'<time>'` reads only what changed since (docs/oneroster.md).",
    schema: { type: 'string' },
  },
  page: {
    name: 'page',
    in: 'query',
    description: 'The page to open, counting from 1. Send `cursor` instead to walk the whole list.',
    schema: { type: 'integer', minimum: 1, maximum: MAX_PAGE, default: 1 },
  },
  items_per_page: {
    name: 'items_per_page',
    in: 'query',
    description: 'How many records a page holds at most.',
    schema: { type: 'integer', minimum: 1, maximum: MAX_ITEMS_PER_PAGE, default: DEFAULT_ITEMS_PER_PAGE },
  },
  cursor: {
    name: 'cursor',
    in: 'query',
    description:
      'The `next_cursor` of the previous page: continues the list from there, seeing every record ' +
      'exactly once. Not with `page`.',
    schema: { type: 'string' },
  },
  updated_since: {
    name: 'updated_since',
    in: 'query',
    description:
      'Lists the records created or changed after this time instead, in the order they changed, up to ' +
      '`sync_until`; resume the next sync from `sync_until` (docs/api.md, "Keeping a copy in sync").',
    schema: { type: 'string', format: 'date-time' },
  },
  processnumber: {
    name: 'processnumber',
    in: 'query',
    description:
      'Only the record with this processnumber (exact match), looked up by key: a list of one record, or ' +
      'of none.',
    schema: { type: 'string', minLength: 1 },
  },
  email: {
    name: 'email',
    in: 'query',
    description:
      'Only the records with this e-mail address (exact match, case as stored), looked up in an index; ' +
      'an address may be shared, so the list may hold several.',
    schema: { type: 'string', minLength: 1 },
  },
  ative: {
    name: 'ative',
    in: 'query',
    description:
      'Only active (`true`) or inactive (`false`) records. With `processnumber` or `email` it narrows what ' +
      'they found. Alone it reads the group until the page is full, so it costs the records it passes ' +
      'over too, but at most 1,000 records a request: a page may then hold fewer records than asked, even ' +
      'none, with a `next_cursor` going on from where the read stopped. Such a list has no `total_items` ' +
      'or `total_pages`, and is walked with `next_cursor` until there is none.',
    schema: { type: 'string', enum: ['true', 'false'] },
  },
  fields: {
    name: 'fields',
    in: 'query',
    description:
      "Only these fields of each record (comma-separated, the record's field names, such as " +
      '`name,processnumber,email`), always with its id: a roster without `photobase64` moves a fraction ' +
      "of the bytes. An unknown name gets 400. On the OneRoster routes, the binding's field names, also as " +
      'the parameter repeated; all by default, and all when one is unknown (a blank one gets 400).',
    schema: { type: 'string' },
  },
  since: {
    name: 'since',
    in: 'query',
    description:
      'Only deletions after this time (at most 90 days ago); without it, every deletion still kept. Resume ' +
      'from the `sync_until` of the last page.',
    schema: { type: 'string', format: 'date-time' },
  },
  response_type: {
    name: 'response_type',
    in: 'query',
    description: 'The authorization code flow (RFC 6749 section 4.1.1): `code`.',
    schema: { type: 'string', enum: ['code'] },
  },
  client_id: {
    name: 'client_id',
    in: 'query',
    description: 'The client asking; it must be registered for the authorization_code grant.',
    schema: { type: 'string' },
  },
  redirect_uri: {
    name: 'redirect_uri',
    in: 'query',
    description:
      "Where to send the person back: exactly one of the client's registered redirect URIs. May be left out " +
      'when the client has only one. An unregistered one gets a page, never a redirect.',
    schema: { type: 'string' },
  },
  scope: {
    name: 'scope',
    in: 'query',
    description:
      "Space-separated scopes, each one the client's; the person's roles narrow them. None asks for all " +
      "the client's scopes that the person's roles grant.",
    schema: { type: 'string' },
  },
  state: {
    name: 'state',
    in: 'query',
    description:
      'Returned unchanged with the code or the error (or, at logout, to post_logout_redirect_uri).',
    schema: { type: 'string' },
  },
  nonce: {
    name: 'nonce',
    in: 'query',
    description: 'OpenID Connect: returned unchanged in the ID token, binding it to this request.',
    schema: { type: 'string', maxLength: LIMITS.openIdParamChars },
  },
  prompt: {
    name: 'prompt',
    in: 'query',
    description:
      '`none`: answer from the sign-on session or with `login_required`, never a page; `login`: ask for the ' +
      'password even with a session; `select_account`: show the sign-in page, where another account may ' +
      'sign in; `consent`: nothing more, since the school registers every app its people may sign in to.',
    schema: { type: 'string' },
  },
  max_age: {
    name: 'max_age',
    in: 'query',
    description: 'Seconds: a sign-in older than this asks for the password again.',
    schema: { type: 'string', pattern: '^[0-9]{1,9}$' },
  },
  login_hint: {
    name: 'login_hint',
    in: 'query',
    description: 'A username or e-mail address to fill the sign-in form with.',
    schema: { type: 'string', maxLength: LIMITS.openIdParamChars },
  },
  ui_locales: {
    name: 'ui_locales',
    in: 'query',
    description: 'Languages for the page, by preference (`pt`, `en`); Accept-Language otherwise.',
    schema: { type: 'string' },
  },
  id_token_hint: {
    name: 'id_token_hint',
    in: 'query',
    description:
      'An ID token this service issued to the app. At logout, the session of its person ends without ' +
      'asking; at sign-in, a session of another person is not used (with prompt=none: login_required).',
    schema: { type: 'string' },
  },
  post_logout_redirect_uri: {
    name: 'post_logout_redirect_uri',
    in: 'query',
    description: "Where to send the person after logout: exactly one of the app's registered addresses.",
    schema: { type: 'string' },
  },
  logout_hint: {
    name: 'logout_hint',
    in: 'query',
    description: 'Accepted and ignored: one browser holds one session.',
    schema: { type: 'string' },
  },
  code_challenge: {
    name: 'code_challenge',
    in: 'query',
    description:
      'PKCE (RFC 7636): BASE64URL(SHA-256(code_verifier)). Required, except from a confidential client ' +
      'whose request has the openid scope and a nonce (RFC 9700 section 2.1.1).',
    schema: { type: 'string', pattern: '^[A-Za-z0-9._~-]{43,128}$' },
  },
  code_challenge_method: {
    name: 'code_challenge_method',
    in: 'query',
    description: 'Required with code_challenge, and only `S256`: `plain` is refused.',
    schema: { type: 'string', enum: ['S256'] },
  },
  access_token: {
    name: 'access_token',
    in: 'query',
    description: 'The access token, instead of the Authorization header (RFC 6750 section 2.3). Not both.',
    schema: { type: 'string' },
  },
};

/** Each query parameter's schema with the bound the request check holds it to. */
const boundedQueryParameters = Object.fromEntries(
  Object.entries(queryParameters).map(([name, parameter]) => {
    const maxLength = QUERY_MAX_LENGTH[name];
    const schema = parameter.schema as Record<string, unknown>;
    return [name, maxLength === undefined ? parameter : { ...parameter, schema: { ...schema, maxLength } }];
  }),
);

function parameters(route: DocumentedRoute) {
  const path = [...route.path.matchAll(/\{(\w+)\}/g)].map(([, name = '']) => ({
    name,
    in: 'path',
    required: true,
    ...(name.endsWith('_id')
      ? { description: `The record's ${name}, a UUID.`, schema: { type: 'string', format: 'uuid' } }
      : { description: `The ${name} name.`, schema: { type: 'string' } }),
  }));
  const query = route.query === 'any' ? [] : [...route.query];
  if (takesToken(route)) query.push('access_token');
  for (const name of query) {
    if (!(name in queryParameters)) throw new Error(`Route ${route.id}: no description of ?${name}`);
  }
  const headers = route.idempotencyKey ? [ref('parameters', 'Idempotency-Key')] : [];
  return [...path, ...query.map((name) => ref('parameters', name)), ...headers];
}

/** Header parameters, beside the query parameters in the components. */
const headerParameters: Record<string, Record<string, unknown>> = {
  'Idempotency-Key': {
    name: 'Idempotency-Key',
    in: 'header',
    description:
      'Makes a retry safe: a repeat with the same key and the same body within 24 hours gets the first ' +
      'response again (with `Idempotent-Replayed: true`) and writes nothing; the same key with another ' +
      'body gets 422. Keys are per caller; send a new one (a UUID) for each new request.',
    schema: { type: 'string', minLength: 1, maxLength: 257 },
  },
};

function security(route: DocumentedRoute) {
  switch (route.auth.kind) {
    case 'scope':
      return route.auth.or
        ? [{ oauth2: [route.auth.scope] }, { oauth2: [route.auth.or] }]
        : [{ oauth2: [route.auth.scope] }];
    case 'token':
      return [{ oauth2: [] }];
    case 'client':
      // HTTP Basic, or client_id and client_secret in the body (which OpenAPI has no scheme for).
      return [{ clientSecretBasic: [] }, {}];
    case 'public':
      return [];
  }
}

function requestBody(route: DocumentedRoute) {
  if (!route.requestBody) return undefined;
  const { schema, mediaTypes } =
    typeof route.requestBody === 'string'
      ? { schema: route.requestBody, mediaTypes: [JSON_TYPE] }
      : route.requestBody;
  return {
    required: true,
    content: Object.fromEntries(mediaTypes.map((type) => [type, { schema: ref('schemas', schema) }])),
  };
}

function response(spec: ResponseSpec) {
  return {
    description: spec.description,
    ...(spec.headers
      ? {
          headers: Object.fromEntries(
            Object.entries(spec.headers).map(([name, header]) => [
              name,
              {
                description: header.description,
                required: header.required,
                schema: { type: 'string', ...(header.pattern ? { pattern: header.pattern } : {}) },
              },
            ]),
          ),
        }
      : {}),
    ...(spec.content
      ? {
          content: Object.fromEntries(
            Object.entries(spec.content).map(([type, body]) => [
              type,
              { schema: body === 'text' ? { type: 'string' } : ref('schemas', body) },
            ]),
          ),
        }
      : {}),
  };
}

function operation(route: DocumentedRoute) {
  const body = requestBody(route);
  return {
    operationId: route.id,
    summary: route.summary,
    tags: [tagOf(route)],
    security: security(route),
    parameters: parameters(route),
    ...(body ? { requestBody: body } : {}),
    responses: Object.fromEntries(
      Object.entries(operationResponses(route)).map(([status, spec]) => [status, response(spec)]),
    ),
  };
}

export type OpenApiDocument = ReturnType<typeof describe>;

function describe(baseUrl: string) {
  const paths: Record<string, Record<string, ReturnType<typeof operation>>> = {};
  for (const route of documentedRoutes) {
    paths[route.path] = { ...paths[route.path], [route.method.toLowerCase()]: operation(route) };
  }
  const usedTags = new Set(documentedRoutes.map(tagOf));
  return {
    openapi: '3.1.0',
    info: {
      title: 'School API',
      version: packageJson.version,
      description:
        `Records of a school-management system (${recordGroups.map((group) => groups[group].plural).join(', ')}), the ` +
        "tenant's status, and OAuth 2.0 tokens for clients and for people who sign in. Lists are paged; " +
        'errors are RFC 9457 problems, except at the token and revocation endpoints, which answer as ' +
        'RFC 6749 says.',
    },
    servers: [{ url: baseUrl, description: 'This deployment' }],
    // Every tag an operation uses, in the order of their descriptions.
    tags: Object.keys(tagDescriptions)
      .filter((tag) => usedTags.has(tag))
      .map((name) => ({ name, description: tagDescriptions[name] })),
    paths,
    components: {
      schemas: componentJsonSchemas(),
      parameters: { ...boundedQueryParameters, ...headerParameters },
      securitySchemes: {
        oauth2: {
          type: 'oauth2',
          description:
            'An access token from the token endpoint, as `Authorization: Bearer` or the `access_token` ' +
            "query parameter: a client's own, or a person's after signing in.",
          flows: {
            clientCredentials: {
              tokenUrl: `${baseUrl}/api/sso/token`,
              scopes: scopeDescriptions,
            },
          },
        },
        clientSecretBasic: {
          type: 'http',
          scheme: 'basic',
          description:
            'The client id and secret, form-urlencoded, as HTTP Basic credentials (RFC 6749 section ' +
            '2.3.1). Or send them as client_id and client_secret in the body instead.',
        },
      },
    },
  };
}

const documents = new Map<string, OpenApiDocument>();

/** The description for a deployment whose base address is `baseUrl`, built once per address. */
export function openApiDocument(baseUrl: string): OpenApiDocument {
  let document = documents.get(baseUrl);
  if (!document) {
    document = describe(baseUrl);
    documents.set(baseUrl, document);
  }
  return document;
}
