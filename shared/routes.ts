// Every operation of the API, one row each: the local server, the CDK stack and the API docs all
// read this table. Adding an operation is one row here plus one handler file under functions/.
import { reachSources } from './auth/reach';
import { keys } from './data/keys';
import {
  type DocumentGroup,
  groups,
  isRoleGroup,
  type RecordGroup,
  readScope,
  type Scope,
  writeScope,
} from './domain/groups';
import type { ComponentName } from './schemas/components';
import { LIMITS } from './schemas/requests';

export type RouteAuth =
  /** A bearer token carrying this scope. */
  | { kind: 'scope'; scope: Scope }
  /** Any valid bearer token. */
  | { kind: 'token' }
  /** OAuth client authentication at the token endpoint (RFC 6749 section 2.3). */
  | { kind: 'client' }
  | { kind: 'public' };

/**
 * What a successful response carries: a JSON body of a registered component, no body at all
 * (`NoContent` for a 204, `NotModified` for a 304, `Redirect` for a 302 or 303 with a Location), or text
 * of the given media types (the docs page).
 */
export type ResponseBody =
  | ComponentName
  | 'NoContent'
  | 'NotModified'
  | 'Redirect'
  | { mediaTypes: readonly string[] };

/** Error statuses a page answers beyond 400, 413, 415 and 500: a refused form, too many failed sign-ins. */
export type PageErrorStatus = 403 | 429;

/** A request body: a JSON body of a registered component, or that component in the given media types. */
export type RequestBody = ComponentName | { schema: ComponentName; mediaTypes: readonly string[] };

export interface Route {
  id: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  /** Module under functions/ that exports `handler`. */
  handler: string;
  auth: RouteAuth;
  summary: string;
  /** Query parameters the operation takes; any other is refused with 400 ('any': not checked). */
  query: readonly string[] | 'any';
  /** Other query parameters are ignored instead of refused (the authorization endpoint, RFC 6749 section 3.1). */
  ignoreUnknownQuery?: true;
  /**
   * What the operation does: read the table, write to it, or issue tokens with the private key (and
   * write what it keeps of them, per `writes`).
   */
  access: 'read' | 'write' | 'sign';
  /**
   * The body the operation takes: JSON only, a form or JSON (the token endpoint), or a form only (the
   * sign-in form); larger ones get 413.
   */
  body?: { type: 'json' | 'form-or-json' | 'form'; maxBytes: number };
  /**
   * Table partitions the handler itself reads, and those it writes. A deployed function is granted
   * these and nothing else (plus the public keys when its route checks tokens, see `partitionsRead`).
   */
  reads: readonly string[];
  writes: readonly string[];
  /** RFC 6749 error bodies instead of problems (the token and revocation endpoints). */
  oauthErrors?: boolean;
  /**
   * A page people open in a browser (sign-in): every response, errors included, is an HTML page or a
   * redirect with the pages' security headers; `errors` lists the error statuses it has beyond the usual.
   */
  page?: { errors: readonly PageErrorStatus[] };
  /** Success responses by status. Error responses follow from auth, parameters and body (shared/openapi). */
  responses: { readonly [status: number]: ResponseBody };
  requestBody?: RequestBody;
}

const paging = ['page', 'items_per_page', 'cursor'] as const;

/** An OAuth endpoint's request (RFC 6749 section 3.2): a form, or JSON; its errors are RFC 6749 bodies. */
const oauthEndpoint = (schema: ComponentName) =>
  ({
    body: { type: 'form-or-json', maxBytes: 16 * 1024 },
    oauthErrors: true,
    requestBody: { schema, mediaTypes: ['application/x-www-form-urlencoded', 'application/json'] },
  }) as const;
const jsonBody = { type: 'json', maxBytes: LIMITS.bodyBytes } as const;

/** The partitions a group's operations touch (docs/data-model.md lists each item). */
function partitionsOf(group: RecordGroup) {
  const { processnumber, links: linked } = groups[group];
  const record = keys.recordPartition(group);
  const claims = processnumber ? [keys.processnumberPartition(group)] : [];
  const links = linked ? [keys.recordPartition(linked.group)] : [];
  // A person's role joins and leaves its entity.
  const owner = isRoleGroup(group) ? [keys.recordPartition('entities')] : [];
  // A person who may read only some of the group reads them by id, found from their own records.
  const reach = reachSources(group).map(keys.recordPartition);
  return {
    list: [record, keys.counterPartition, keys.changePartition(group), ...reach],
    get: [record, keys.gonePartition(group), ...reach],
    deleted: [keys.deletionPartition(group), ...reach],
    create: { reads: [], writes: [record, keys.counterPartition, ...claims, ...owner, ...links] },
    replace: { reads: [record, keys.gonePartition(group)], writes: [record, ...claims, ...links] },
    remove: {
      reads: [record, keys.gonePartition(group), ...owner],
      writes: [
        record,
        keys.counterPartition,
        keys.deletionPartition(group),
        keys.gonePartition(group),
        ...claims,
        ...owner,
        ...links,
      ],
    },
    addDocument: { reads: [record, keys.gonePartition(group)], writes: [record] },
  };
}

/** The components a group's operations take and give: a document only where records hold documents. */
type GroupComponents<G extends RecordGroup> = {
  page: ComponentName;
  item: ComponentName;
  deletions: ComponentName;
  insert: ComponentName;
} & (G extends DocumentGroup ? { document: ComponentName } : { document?: undefined });

const groupRoutes = <G extends RecordGroup>(group: G, components: GroupComponents<G>): Route[] => {
  const { idField: idParam, noun } = groups[group];
  const read = { kind: 'scope', scope: readScope(group) } as const;
  const write = { kind: 'scope', scope: writeScope(group) } as const;
  const one = `/api/${group}/{${idParam}}`;
  const partitions = partitionsOf(group);
  return [
    {
      id: `list-${group}`,
      method: 'GET',
      path: `/api/${group}`,
      handler: `${group}/list`,
      auth: read,
      summary: `List ${group} in id order, or those changed since a time`,
      query: [...paging, 'updated_since'],
      access: 'read',
      reads: partitions.list,
      writes: [],
      responses: { 200: components.page },
    },
    {
      id: `get-${group}`,
      method: 'GET',
      path: one,
      handler: `${group}/get`,
      auth: read,
      summary: `Get one ${noun} by id`,
      query: [],
      access: 'read',
      reads: partitions.get,
      writes: [],
      responses: { 200: components.item, 304: 'NotModified' },
    },
    {
      id: `list-deleted-${group}`,
      method: 'GET',
      path: `/api/${group}/deleted`,
      handler: `${group}/list-deleted`,
      auth: read,
      summary: `List ${group} deleted since a time`,
      query: ['since', 'items_per_page', 'cursor'],
      access: 'read',
      reads: partitions.deleted,
      writes: [],
      responses: { 200: components.deletions },
    },
    {
      id: `create-${group}`,
      method: 'POST',
      path: `/api/${group}`,
      handler: `${group}/create`,
      auth: write,
      summary: `Create a ${noun}`,
      query: [],
      access: 'write',
      body: jsonBody,
      ...partitions.create,
      responses: { 201: components.item },
      requestBody: components.insert,
    },
    {
      id: `replace-${group}`,
      method: 'PUT',
      path: one,
      handler: `${group}/replace`,
      auth: write,
      summary: `Replace a ${noun}`,
      query: [],
      access: 'write',
      body: jsonBody,
      ...partitions.replace,
      responses: { 200: components.item },
      requestBody: components.insert,
    },
    {
      id: `delete-${group}`,
      method: 'DELETE',
      path: one,
      handler: `${group}/delete`,
      auth: write,
      summary: `Delete a ${noun}`,
      query: [],
      access: 'write',
      ...partitions.remove,
      responses: { 204: 'NoContent' },
    },
    ...(components.document === undefined
      ? []
      : [
          {
            id: `add-document-${group}`,
            method: 'POST',
            path: `${one}/documents`,
            handler: `${group}/add-document`,
            auth: write,
            summary: `Add an identification document to a ${noun}`,
            query: [],
            access: 'write',
            body: jsonBody,
            ...partitions.addDocument,
            responses: { 201: components.item },
            requestBody: components.document,
          } satisfies Route,
        ]),
  ];
};

/** Every group's components, in the order its routes are listed: each group has its routes. */
const groupComponents: { [G in RecordGroup]: GroupComponents<G> } = {
  entities: {
    page: 'EntitiesPage',
    item: 'Entity',
    deletions: 'EntitiesDeletions',
    insert: 'EntityInsertRequest',
    document: 'EntityIdentificationDocumentInsertRequest',
  },
  students: {
    page: 'StudentsPage',
    item: 'Student',
    deletions: 'StudentsDeletions',
    insert: 'StudentInsertRequest',
    document: 'StudentIdentificationDocumentInsertRequest',
  },
  tutors: {
    page: 'TutorsPage',
    item: 'Tutor',
    deletions: 'TutorsDeletions',
    insert: 'TutorInsertRequest',
    document: 'TutorIdentificationDocumentInsertRequest',
  },
  staffs: {
    page: 'StaffsPage',
    item: 'Staff',
    deletions: 'StaffsDeletions',
    insert: 'StaffInsertRequest',
    document: 'StaffIdentificationDocumentInsertRequest',
  },
  teachers: {
    page: 'TeachersPage',
    item: 'Teacher',
    deletions: 'TeachersDeletions',
    insert: 'TeacherInsertRequest',
    document: 'TeacherIdentificationDocumentInsertRequest',
  },
};

export const routes: readonly Route[] = [
  ...(Object.keys(groupComponents) as RecordGroup[]).flatMap((group) =>
    groupRoutes(group, groupComponents[group]),
  ),
  {
    id: 'get-system',
    method: 'GET',
    path: '/api/system',
    handler: 'system/get',
    auth: { kind: 'scope', scope: 'system:read' },
    summary: 'Tenant information, service version and record counts',
    query: [],
    access: 'read',
    reads: [keys.counterPartition],
    writes: [],
    responses: { 200: 'SystemStatus' },
  },
  {
    id: 'create-token',
    method: 'POST',
    path: '/api/sso/token',
    handler: 'sso/token',
    auth: { kind: 'client' },
    summary: 'Issue OAuth 2.0 tokens (client_credentials, authorization_code and refresh_token grants)',
    query: [],
    access: 'sign',
    // A refresh reads its token, family, account and entity; a code exchange redeems the code (an
    // update) and starts a family; rotation and reuse write tokens and families.
    reads: [
      keys.clientPartition,
      keys.refreshTokenPartition,
      keys.refreshFamilyPartition,
      keys.userPartition,
      keys.recordPartition('entities'),
    ],
    writes: [keys.authorizationCodePartition, keys.refreshTokenPartition, keys.refreshFamilyPartition],
    ...oauthEndpoint('OAuthTokenRequest'),
    responses: { 200: 'OAuthTokenResponse' },
  },
  {
    id: 'revoke-token',
    method: 'POST',
    path: '/api/sso/revoke',
    handler: 'sso/revoke',
    auth: { kind: 'client' },
    summary: 'Revoke a refresh token and every token of its sign-in (RFC 7009)',
    query: [],
    access: 'write',
    reads: [keys.clientPartition, keys.refreshTokenPartition],
    writes: [keys.refreshFamilyPartition],
    ...oauthEndpoint('OAuthRevocationRequest'),
    responses: { 200: 'NoContent' },
  },
  {
    id: 'get-authorize',
    method: 'GET',
    path: '/api/sso/authorize',
    handler: 'sso/authorize',
    auth: { kind: 'public' },
    summary: 'Start signing a person in (authorization code with PKCE): the sign-in page',
    query: [
      'response_type',
      'client_id',
      'redirect_uri',
      'scope',
      'state',
      'code_challenge',
      'code_challenge_method',
    ],
    ignoreUnknownQuery: true,
    access: 'write',
    reads: [keys.clientPartition],
    writes: [keys.authorizationRequestPartition],
    page: { errors: [] },
    responses: { 200: { mediaTypes: ['text/html'] }, 302: 'Redirect' },
  },
  {
    id: 'post-authorize',
    method: 'POST',
    path: '/api/sso/authorize',
    handler: 'sso/sign-in',
    auth: { kind: 'public' },
    summary: "The sign-in page's form: on success, back to the client with a code",
    query: [],
    access: 'write',
    body: { type: 'form', maxBytes: 8 * 1024 },
    reads: [
      keys.authorizationRequestPartition,
      keys.signInThrottlePartition,
      keys.loginPartition,
      keys.userPartition,
      keys.recordPartition('entities'),
    ],
    writes: [
      keys.authorizationRequestPartition,
      keys.signInThrottlePartition,
      keys.authorizationCodePartition,
    ],
    page: { errors: [403, 429] },
    responses: { 303: 'Redirect' },
    requestBody: { schema: 'SignInForm', mediaTypes: ['application/x-www-form-urlencoded'] },
  },
  {
    id: 'get-me',
    method: 'GET',
    path: '/api/sso/me',
    handler: 'sso/me',
    auth: { kind: 'token' },
    summary: 'Who the calling token belongs to',
    query: [],
    access: 'read',
    // A person's account and entity.
    reads: [keys.userPartition, keys.recordPartition('entities')],
    writes: [],
    responses: { 200: 'OAuthMeResponse' },
  },
  {
    id: 'get-jwks',
    method: 'GET',
    path: '/api/sso/jwks',
    handler: 'sso/jwks',
    auth: { kind: 'public' },
    summary: 'Public signing keys (JWKS)',
    query: [],
    access: 'read',
    reads: [keys.publicKeyPartition],
    writes: [],
    responses: { 200: 'Jwks' },
  },
  {
    id: 'get-openid-configuration',
    method: 'GET',
    path: '/api/sso/.well-known/openid-configuration',
    handler: 'sso/openid-configuration',
    auth: { kind: 'public' },
    summary: 'Authorization server metadata',
    query: [],
    access: 'read',
    reads: [],
    writes: [],
    responses: { 200: 'AuthorizationServerMetadata' },
  },
  {
    id: 'get-openapi',
    method: 'GET',
    path: '/api/openapi.json',
    handler: 'docs/openapi',
    auth: { kind: 'public' },
    summary: 'This API description (OpenAPI 3.1)',
    query: [],
    access: 'read',
    reads: [],
    writes: [],
    responses: { 200: 'OpenApiDocument' },
  },
  {
    id: 'get-docs',
    method: 'GET',
    path: '/api/docs',
    handler: 'docs/page',
    auth: { kind: 'public' },
    summary: 'The API docs page',
    query: [],
    access: 'read',
    reads: [],
    writes: [],
    responses: { 200: { mediaTypes: ['text/html'] } },
  },
  {
    id: 'get-docs-asset',
    method: 'GET',
    path: '/api/docs/{asset}',
    handler: 'docs/asset',
    auth: { kind: 'public' },
    summary: 'A script, style sheet or licence file of the docs page',
    query: [],
    access: 'read',
    reads: [],
    writes: [],
    responses: { 200: { mediaTypes: ['text/javascript', 'text/css', 'text/plain'] } },
  },
];

/** Answers every request no route matches: a 404 or 405 problem, locally and behind API Gateway alike. */
export const fallbackRoute: Route = {
  id: 'fallback',
  method: 'GET',
  path: '$default',
  handler: 'fallback/not-found',
  auth: { kind: 'public' },
  summary: 'Unknown paths and methods',
  query: 'any',
  access: 'read',
  reads: [],
  writes: [],
  responses: {},
};

/** Every partition a route's function reads: its own, and the public keys wherever it checks a token. */
export function partitionsRead(route: Route): string[] {
  const checksTokens = route.auth.kind === 'scope' || route.auth.kind === 'token';
  return [...new Set([...route.reads, ...(checksTokens ? [keys.publicKeyPartition] : [])])];
}

export function routeById(id: string): Route {
  const route = [...routes, fallbackRoute].find((r) => r.id === id);
  if (!route) throw new Error(`No route ${id} in the route table`);
  return route;
}

export interface RouteMatch {
  route: Route;
  pathParameters: Record<string, string>;
}

/** Routes with fewer parameters first: a static segment wins over a parameter, as in API Gateway. */
const compiled = routes
  .map((route) => ({
    route,
    names: [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string),
    pattern: new RegExp(`^${route.path.replace(/[.]/g, '\\.').replace(/\{\w+\}/g, '([^/]+)')}$`),
  }))
  .sort((a, b) => a.names.length - b.names.length);

/** Finds the route for a request the way API Gateway does: exact method and path template. */
export function matchRoute(
  method: string,
  path: string,
): RouteMatch | { route: undefined; allowed: Route['method'][] } {
  const allowed: Route['method'][] = [];
  for (const { route, names, pattern } of compiled) {
    const m = pattern.exec(path);
    if (!m) continue;
    if (route.method !== method) {
      if (!allowed.includes(route.method)) allowed.push(route.method);
      continue;
    }
    const pathParameters: Record<string, string> = {};
    names.forEach((name, i) => {
      pathParameters[name] = m[i + 1] as string;
    });
    return { route, pathParameters };
  }
  return { route: undefined, allowed };
}
