// Every operation of the API, one row each, with what it needs at run time: method, path, handler,
// authentication, parameters, body limits, the dialect its errors are written in, whom its audit event
// names and the table partitions it may touch. The rows are declared by area, the service's own in
// shared/service-routes.ts and the OneRoster binding's in shared/oneroster/routes.ts, so that a handler
// builds only its area's; the local server, the CDK stack and the tests read the whole table here, and the
// API docs add each row's documentation (shared/openapi/route-docs.ts). Adding an operation is one row in
// its area, one docs row, and one handler file that names its row (test/route-handlers.test.ts).
import { keys } from './data/keys';
import { type OneRosterRouteId, oneRosterRoutes } from './oneroster/routes';
import { type RecordRouteId, recordRoutes } from './record-routes';
import { type Route, rowOf, takesToken } from './route';
import { fallbackRoute, type ServiceRouteId, serviceRoutes } from './service-routes';

export type { RecordRouteId };
export { fallbackRoute };

/** The id of every route, the fallback's too: a handler, a docs row or a test names a route by one of these. */
export type RouteId = RecordRouteId | ServiceRouteId | OneRosterRouteId;

export const routes: readonly Route<RouteId>[] = [...recordRoutes(), ...serviceRoutes, ...oneRosterRoutes()];

/**
 * Every partition a route's function reads: its own, the public keys, the revoked sign-ins and the clients'
 * policies (disabled, rate limits) wherever it checks a token, and the sign-in families wherever it checks a person's sign-in at once.
 */
export function partitionsRead(route: Route): string[] {
  return [
    ...new Set([
      ...route.reads,
      ...(takesToken(route)
        ? [keys.publicKeyPartition, keys.revocationPartition, keys.clientPolicyPartition]
        : []),
      ...(route.checksSignIn ? [keys.refreshFamilyPartition] : []),
    ]),
  ];
}

/**
 * The partitions a route's function counts its callers' requests in (their rate limit's window and their
 * client's usage, shared/wiring/rate-limit.ts), with UpdateItem alone: every route that takes a token.
 */
export function partitionsCounted(route: Route): string[] {
  return takesToken(route) ? [keys.rateWindowPartition, keys.clientUsagePartition] : [];
}

export const routeById = (id: RouteId): Route => rowOf([...routes, fallbackRoute], id);

export interface RouteMatch {
  route: Route;
  pathParameters: Record<string, string>;
}

/**
 * Routes with fewer parameters first: a static segment wins over a parameter, as in API Gateway. Kept by
 * the number of `/` in their path, since a parameter matches one segment: a path is tried only against the
 * templates with as many, instead of every route (the local gateway matches every request). Compiled on the
 * first match, since only the fallback and the local gateway match paths: every other handler imports this
 * table and would pay for the patterns at cold start.
 */
type Compiled = { route: Route; names: string[]; pattern: RegExp };
let compiled: Map<number, Compiled[]> | undefined;

const slashes = (path: string) => path.split('/').length - 1;

function compileRoutes() {
  const bySlashes = new Map<number, Compiled[]>();
  const sorted = routes
    .map((route) => ({
      route,
      names: [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string),
      pattern: new RegExp(`^${route.path.replace(/[.]/g, '\\.').replace(/\{\w+\}/g, '([^/]+)')}$`),
    }))
    .sort((a, b) => a.names.length - b.names.length);
  for (const entry of sorted) {
    const count = slashes(entry.route.path);
    bySlashes.set(count, [...(bySlashes.get(count) ?? []), entry]);
  }
  return bySlashes;
}

/** Finds the route for a request the way API Gateway does: exact method and path template. */
export function matchRoute(
  method: string,
  path: string,
): RouteMatch | { route: undefined; allowed: Route['method'][] } {
  const allowed: Route['method'][] = [];
  compiled ??= compileRoutes();
  for (const { route, names, pattern } of compiled.get(slashes(path)) ?? []) {
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
