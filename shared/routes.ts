// Every operation of the API, one row each: the local server, the CDK stack and the API docs all
// read this table. Adding an operation is one row here plus one handler file under functions/.
import { type RecordGroup, readScope, type Scope } from './domain/groups';
import type { ComponentName } from './schemas/components';

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
 * (`NoContent`, for a 204), or text of the given media types (the docs page and its assets).
 */
export type ResponseBody = ComponentName | 'NoContent' | { mediaTypes: readonly string[] };

/** A request body: a JSON body of a registered component, or that component in the given media types. */
export type RequestBody = ComponentName | { schema: ComponentName; mediaTypes: readonly string[] };

export interface Route {
  id: string;
  method: 'GET' | 'POST';
  path: string;
  /** Module under functions/ that exports `handler`. */
  handler: string;
  auth: RouteAuth;
  summary: string;
  /** Query parameters the operation takes; any other is refused with 400 ('any': not checked). */
  query: readonly string[] | 'any';
  /** What the operation needs beyond reading records: `sign` issues tokens with the private key. */
  access: 'read' | 'sign';
  /** RFC 6749 error bodies instead of problems (the token endpoint). */
  oauthErrors?: boolean;
  /** Success responses by status. Error responses follow from auth, parameters and body (shared/openapi). */
  responses: { readonly [status: number]: ResponseBody };
  requestBody?: RequestBody;
}

const paging = ['page', 'items_per_page', 'cursor'] as const;

const groupRoutes = (
  group: RecordGroup,
  idParam: string,
  noun: string,
  components: { list: ComponentName; item: ComponentName },
): Route[] => [
  {
    id: `list-${group}`,
    method: 'GET',
    path: `/api/${group}`,
    handler: `${group}/list`,
    auth: { kind: 'scope', scope: readScope(group) },
    summary: `List ${group}, in id order`,
    query: paging,
    access: 'read',
    responses: { 200: components.list },
  },
  {
    id: `get-${group}`,
    method: 'GET',
    path: `/api/${group}/{${idParam}}`,
    handler: `${group}/get`,
    auth: { kind: 'scope', scope: readScope(group) },
    summary: `Get one ${noun} by id`,
    query: [],
    access: 'read',
    responses: { 200: components.item },
  },
];

export const routes: readonly Route[] = [
  ...groupRoutes('entities', 'entity_id', 'entity', { list: 'EntitiesList', item: 'Entity' }),
  ...groupRoutes('students', 'student_id', 'student', { list: 'StudentsList', item: 'Student' }),
  ...groupRoutes('tutors', 'tutor_id', 'tutor', { list: 'TutorsList', item: 'Tutor' }),
  ...groupRoutes('staffs', 'staff_id', 'staff member', { list: 'StaffsList', item: 'Staff' }),
  ...groupRoutes('teachers', 'teacher_id', 'teacher', { list: 'TeachersList', item: 'Teacher' }),
  {
    id: 'get-system',
    method: 'GET',
    path: '/api/system',
    handler: 'system/get',
    auth: { kind: 'scope', scope: 'system:read' },
    summary: 'Tenant information, service version and record counts',
    query: [],
    access: 'read',
    responses: { 200: 'SystemStatus' },
  },
  {
    id: 'create-token',
    method: 'POST',
    path: '/api/sso/token',
    handler: 'sso/token',
    auth: { kind: 'client' },
    summary: 'Issue an OAuth 2.0 access token (client_credentials grant)',
    query: [],
    access: 'sign',
    oauthErrors: true,
    responses: { 200: 'OAuthTokenResponse' },
    requestBody: {
      schema: 'OAuthTokenRequest',
      mediaTypes: ['application/x-www-form-urlencoded', 'application/json'],
    },
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
  responses: {},
};

export function routeById(id: string): Route {
  const route = [...routes, fallbackRoute].find((r) => r.id === id);
  if (!route) throw new Error(`No route ${id} in the route table`);
  return route;
}

export interface RouteMatch {
  route: Route;
  pathParameters: Record<string, string>;
}

const compiled = routes.map((route) => ({
  route,
  names: [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string),
  pattern: new RegExp(`^${route.path.replace(/[.]/g, '\\.').replace(/\{\w+\}/g, '([^/]+)')}$`),
}));

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
      allowed.push(route.method);
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
