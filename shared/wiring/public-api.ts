// The factory of routes anyone may call, or that authenticate the client themselves (the token,
// revocation and sign-in endpoints): no token verifier, and so nothing of it in their bundles.

import { pageDialect } from '../auth/page-dialect';
import type { ApiHandler } from '../exchange';
import { createApi } from '../http/api';
import { oauthDialect, problemDialect } from '../http/dialect';
import { type ServiceRouteId, serviceRoute } from '../service-routes';
import { config } from './context';
import { kernelRuntime } from './kernel-runtime';
import { observersOf } from './observers';

export function publicApi(routeId: ServiceRouteId, handle: ApiHandler) {
  const route = serviceRoute(routeId);
  return createApi(route, handle, {
    ...kernelRuntime,
    dialects: { problem: problemDialect, oauth: oauthDialect, page: pageDialect(config) },
    observers: observersOf(route),
  });
}
