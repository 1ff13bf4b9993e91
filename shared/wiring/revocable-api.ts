// The factory of routes that refuse a person's token at once when its sign-in is revoked (record writes
// and /me, `checksSignIn` in the route table): the bearer-token factory, plus the sign-in families it
// reads, answering errors as problems, or in the dialect its caller gives (the OneRoster Gradebook's
// writes, oneroster-write-api.ts). Kept apart from api.ts so that reads, which rely on the
// verifier's list of revoked sign-ins (within REVOCATION_REFRESH_SECONDS), hold nothing of it.

import { bearerAuthentication } from '../auth/authenticate';
import type { ApiHandler } from '../exchange';
import { createApi } from '../http/api';
import { type ErrorDialect, problemDialect } from '../http/dialect';
import type { Route, RouteDialect } from '../route';
import { auditLog } from './audit-log';
import { clientPolicies } from './client-policies';
import { kernelRuntime } from './kernel-runtime';
import { observersOf } from './observers';
import { admission } from './rate-limit';
import { signInFamilies } from './sign-in-families';
import { tokenVerifier } from './token-verifier';

/** The factory, its routes' errors answered in `dialects`. */
export function revocableApiIn(
  dialects: Partial<Record<RouteDialect['kind'], ErrorDialect>>,
  route: Route,
  handle: ApiHandler,
) {
  return createApi(route, handle, {
    ...kernelRuntime,
    authenticate: bearerAuthentication(route, {
      verifier: tokenVerifier,
      signIns: signInFamilies,
      policies: clientPolicies,
    }),
    admit: admission(route),
    dialects,
    observers: observersOf(route, auditLog),
  });
}

/**
 * The factory of the service's own routes, answering problems. A function of its own, so that a bundle
 * using revocableApiIn alone holds nothing of the problem dialect.
 */
export function revocableApi(route: Route, handle: ApiHandler) {
  return revocableApiIn({ problem: problemDialect }, route, handle);
}
