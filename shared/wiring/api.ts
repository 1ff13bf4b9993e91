// The factory the handlers of the service's own routes that take a bearer token use: the route's middy
// stack (shared/http/api.ts) with the process's configuration, logger and token verifier, and problem
// details for errors. The OneRoster binding's routes have their own (oneroster-api.ts).

import { createApi } from '../http/api';
import { problemDialect } from '../http/dialect';
import type { ApiHandler } from '../http/exchange';
import { type ServiceRouteId, serviceRoute } from '../service-routes';
import { auditLog } from './audit-log';
import { config, logger } from './context';
import { observersOf } from './observers';
import { tokenVerifier } from './token-verifier';

export function api(routeId: ServiceRouteId, handle: ApiHandler) {
  const route = serviceRoute(routeId);
  return createApi(route, handle, {
    config,
    logger,
    dialects: { problem: problemDialect },
    verifier: tokenVerifier,
    observers: observersOf(route, auditLog),
  });
}
