// The factory the handlers of routes that take a bearer token use: the route's middy stack
// (shared/http/api.ts) with the process's configuration, logger and token verifier.

import { bearerAuthentication } from '../auth/authenticate';
import type { ApiHandler } from '../exchange';
import { createApi } from '../http/api';
import { problemDialect } from '../http/dialect';
import { imsxDialect } from '../oneroster/dialect';
import { QUERY_MAX_LENGTH } from '../query-limits';
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
    queryMaxLength: QUERY_MAX_LENGTH,
    authenticate: bearerAuthentication(route, { verifier: tokenVerifier }),
    dialects: { problem: problemDialect, imsx: imsxDialect },
    asHttpError: httpErrorOf,
    observers: observersOf(route, auditLog),
  });
}
