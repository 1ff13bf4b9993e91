// The factory of the OneRoster binding's routes: the bearer-token factory with the binding's
// imsx_StatusInfo errors. Kept apart from api.ts so that the service's own routes carry nothing of the
// binding's error format.

import { bearerAuthentication } from '../auth/authenticate';
import type { ApiHandler } from '../exchange';
import { createApi } from '../http/api';
import { imsxDialect } from '../oneroster/dialect';
import { type OneRosterReadRouteId, oneRosterReadRoutes } from '../oneroster/routes';
import { rowOf } from '../route';
import { auditLog } from './audit-log';
import { clientPolicies } from './client-policies';
import { kernelRuntime } from './kernel-runtime';
import { observersOf } from './observers';
import { admission } from './rate-limit';
import { tokenVerifier } from './token-verifier';

export function oneRosterApi(routeId: OneRosterReadRouteId, handle: ApiHandler) {
  const route = rowOf(oneRosterReadRoutes, routeId);
  return createApi(route, handle, {
    ...kernelRuntime,
    authenticate: bearerAuthentication(route, { verifier: tokenVerifier, policies: clientPolicies }),
    admit: admission(route),
    dialects: { imsx: imsxDialect },
    observers: observersOf(route, auditLog),
  });
}
