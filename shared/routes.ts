// Every operation of the API, one row each: the local server, the CDK stack and the API docs all
// read this table. Adding an operation is one row here plus one handler file under functions/.
import { keys } from './data/keys';
import { type RecordGroup, readScope, type Scope } from './domain/groups';

export type RouteAuth =
  /** A bearer token carrying this scope. */
  | { kind: 'scope'; scope: Scope }
  /** Any valid bearer token. */
  | { kind: 'token' }
  /** OAuth client authentication at the token endpoint (RFC 6749 section 2.3). */
  | { kind: 'client' }
  | { kind: 'public' };

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
  /**
   * Table partitions the handler itself reads. A deployed function is granted these and nothing else
   * (plus the public keys when its route checks tokens, see `partitionsRead`).
   */
  reads: readonly string[];
  /** RFC 6749 error bodies instead of problems (the token endpoint). */
  oauthErrors?: boolean;
}

const paging = ['page', 'items_per_page', 'cursor'] as const;

const groupRoutes = (group: RecordGroup, idParam: string, noun: string): Route[] => [
  {
    id: `list-${group}`,
    method: 'GET',
    path: `/api/${group}`,
    handler: `${group}/list`,
    auth: { kind: 'scope', scope: readScope(group) },
    summary: `List ${group}, in id order`,
    query: paging,
    access: 'read',
    reads: [keys.recordPartition(group), keys.counterPartition],
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
    reads: [keys.recordPartition(group)],
  },
];

export const routes: readonly Route[] = [
  ...groupRoutes('entities', 'entity_id', 'entity'),
  ...groupRoutes('students', 'student_id', 'student'),
  ...groupRoutes('tutors', 'tutor_id', 'tutor'),
  ...groupRoutes('staffs', 'staff_id', 'staff member'),
  ...groupRoutes('teachers', 'teacher_id', 'teacher'),
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
    reads: [keys.clientPartition],
    oauthErrors: true,
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
    reads: [],
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
