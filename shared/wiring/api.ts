// The factory the handlers of routes that take a bearer token use: the route's middy stack
// (shared/http/api.ts) with the process's configuration, logger and token verifier.

import { createApi } from '../http/api';
import { problemDialect } from '../http/dialect';
import type { ApiHandler } from '../http/exchange';
import { imsxDialect } from '../oneroster/dialect';
import { type RouteId, routeById } from '../routes';
import { auditLog } from './audit-log';
import { config, logger } from './context';
import { httpErrorOf } from './domain-errors';
import { observersOf } from './observers';
import { tokenVerifier } from './token-verifier';

export function api(routeId: RouteId, handle: ApiHandler) {
  const route = routeById(routeId);
  return createApi(route, handle, {
    config,
    logger,
    dialects: { problem: problemDialect, imsx: imsxDialect },
    verifier: tokenVerifier,
    asHttpError: httpErrorOf,
    observers: observersOf(route, auditLog),
  });
}
