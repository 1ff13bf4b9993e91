// The shape of a row of the route table (shared/routes.ts), apart from the table itself: the binding
// modules that contribute rows (OneRoster) and the wiring that serves one need the shape, not every row.
// The HTTP kernel reads only the part it declares (HttpRoute).
import type { RoleGroup, Scope } from './domain/groups';
import type { HttpRoute } from './http/route';

export type RouteAuth =
  /** A bearer token carrying this scope, or the other one where `or` names one. */
  | { kind: 'scope'; scope: Scope; or?: Scope }
  /** Any valid bearer token. */
  | { kind: 'token' }
  /** OAuth client authentication at the token endpoint (RFC 6749 section 2.3). */
  | { kind: 'client' }
  | { kind: 'public' };

/** Error statuses a page answers beyond 400, 413, 415 and 500: a refused form, too many failed sign-ins. */
export type PageErrorStatus = 403 | 429;

/**
 * How a route's errors are written: RFC 9457 problems; RFC 6749 error bodies (the token and revocation
 * endpoints); OneRoster imsx_StatusInfo bodies (the OneRoster binding's routes); or HTML pages, for a page
 * people open in a browser (sign-in), whose every response, errors included, is an HTML page or a redirect
 * with the pages' security headers, and whose `errors` are the error statuses it has beyond the usual.
 */
export type RouteDialect =
  | { kind: 'problem' }
  | { kind: 'oauth' }
  | { kind: 'imsx' }
  | { kind: 'page'; errors: readonly PageErrorStatus[] };

/**
 * What a request to a route reads or writes about people or clients, for its audit event (shared/audit/):
 * one event a request, whatever its outcome.
 */
export interface RouteAudit {
  /**
   * The person group whose records it touches (a OneRoster route's people are entities), or the tenant's
   * OAuth clients, which the administration API changes.
   */
  group: 'entities' | RoleGroup | 'clients';
  /**
   * The path parameters that name records of the group: what the event names when the handler names
   * nothing (the request failed, or it lists a person's other records).
   */
  named: readonly string[];
  /** Ids are matched whatever their case (OneRoster's sourcedIds): the event names them in lower case. */
  caseless?: true;
}

/** A route as the HTTP kernel serves it (its query, body and dialect), and what the service declares of it. */
export interface Route<Id extends string = string> extends HttpRoute<RouteDialect['kind']> {
  id: Id;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  /** Module under functions/ that exports `handler`. */
  handler: string;
  auth: RouteAuth;
  /**
   * What the operation does: read the table, write to it, or issue tokens with the private key (and
   * write what it keeps of them, per `writes`).
   */
  access: 'read' | 'write' | 'sign';
  /**
   * Table partitions the handler itself reads, and those it writes. A deployed function is granted
   * these and nothing else (plus the public keys when its route checks tokens, see `partitionsRead`).
   */
  reads: readonly string[];
  writes: readonly string[];
  dialect: RouteDialect;
  /**
   * A person's token is refused at once when the sign-in it comes from is revoked (its code or a refresh
   * token reused, or RFC 7009 revocation), at the cost of one read of its REFRESH_FAMILY item a request:
   * set on record writes and /me, where that read is small beside the route's own work. Every route that
   * takes a token refuses it within REVOCATION_REFRESH_SECONDS anyway (shared/auth/revoked-sign-ins.ts).
   */
  checksSignIn?: true;
  /** Requests are audited, as this says; a route without it touches no person's records. */
  audit?: RouteAudit;
  /** Takes an Idempotency-Key header: a retry with the same key and body gets the first response. */
  idempotencyKey?: true;
}

/** Whether a route takes a bearer token (and so verifies it, and admits its caller under a rate limit). */
export const takesToken = (route: Pick<Route, 'auth'>) =>
  route.auth.kind === 'scope' || route.auth.kind === 'token';

/** A row of the route table, its id kept as written, so that the table's ids form a type. */
export const row = <const Id extends string>(route: Route<Id>): Route<Id> => route;

/** The row of `id` among `rows`; a handler naming a route its area does not declare fails at import. */
export function rowOf<Id extends string>(rows: readonly Route<Id>[], id: Id): Route {
  const route = rows.find((r) => r.id === id);
  if (!route) throw new Error(`No route ${id} in the route table`);
  return route;
}
