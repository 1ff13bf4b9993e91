// The factory of routes anyone may call, or that authenticate the client themselves (the token,
// revocation and sign-in endpoints): no token verifier, and so nothing of it in their bundles.

import { pageDialect } from '../auth/page-dialect';
import type { ApiHandler } from '../exchange';
import { createApi } from '../http/api';
import { oauthDialect, problemDialect } from '../http/dialect';
import { QUERY_MAX_LENGTH } from '../query-limits';
import { type ServiceRouteId, serviceRoute } from '../service-routes';
import { config, logger } from './context';
import { httpErrorOf } from './domain-errors';
import { observersOf } from './observers';

export function publicApi(routeId: ServiceRouteId, handle: ApiHandler) {
  const route = serviceRoute(routeId);
  return createApi(route, handle, {
    config,
    logger,
    queryMaxLength: QUERY_MAX_LENGTH,
    dialects: { problem: problemDialect, oauth: oauthDialect, page: pageDialect(config) },
    asHttpError: httpErrorOf,
    observers: observersOf(route),
  });
}
