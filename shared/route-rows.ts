// The two shapes most of the service's route rows take, a read and a write answered in problem details,
// shared by the record groups' rows (record-routes.ts) and the other areas' (service-routes.ts).
import type { Scope } from './domain/groups';
import type { RouteBody } from './http/route';
import { type RouteAudit, row } from './route';

export const problems = { kind: 'problem' } as const;

/** A read: a GET with a scope, answered in problem details, writing nothing. */
export const readRow = <const Id extends string>(r: {
  id: Id;
  path: string;
  handler: string;
  scope: Scope;
  audit?: RouteAudit;
  query: readonly string[];
  reads: readonly string[];
}) =>
  row({
    id: r.id,
    method: 'GET',
    path: r.path,
    handler: r.handler,
    ...(r.audit ? { audit: r.audit } : {}),
    auth: { kind: 'scope', scope: r.scope },
    query: r.query,
    access: 'read',
    dialect: problems,
    reads: r.reads,
    writes: [],
  });

/**
 * A write: with a scope, checking the sign-in, answered in problem details, taking a JSON body where it
 * has one.
 */
export const writeRow = <const Id extends string>(w: {
  id: Id;
  method: 'POST' | 'PUT' | 'DELETE';
  path: string;
  handler: string;
  scope: Scope;
  audit?: RouteAudit;
  body?: RouteBody;
  idempotencyKey?: true;
  reads: readonly string[];
  writes: readonly string[];
}) =>
  row({
    id: w.id,
    method: w.method,
    path: w.path,
    handler: w.handler,
    ...(w.audit ? { audit: w.audit } : {}),
    auth: { kind: 'scope', scope: w.scope },
    checksSignIn: true,
    query: [],
    access: 'write',
    dialect: problems,
    ...(w.body ? { body: w.body } : {}),
    ...(w.idempotencyKey ? { idempotencyKey: true } : {}),
    reads: w.reads,
    writes: w.writes,
  });
