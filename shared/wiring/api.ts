// The factory the handlers of the service's own routes that take a bearer token use: the route's middy
// stack (shared/http/api.ts) with the process's configuration, logger and token verifier, and problem
// details for errors. The OneRoster binding's routes have their own (oneroster-api.ts).
// The service's factories take their route's row, found by the handler: `serviceRoute(id)`, or for a
// record group's route `recordRoute(id)`, so that a record's handler bundles the record groups' rows only.

import { bearerAuthentication } from '../auth/authenticate';
import type { ApiHandler } from '../exchange';
import { createApi } from '../http/api';
import { problemDialect } from '../http/dialect';
import type { Route } from '../route';
import { auditLog } from './audit-log';
import { clientPolicies } from './client-policies';
import { kernelRuntime } from './kernel-runtime';
import { observersOf } from './observers';
import { admission } from './rate-limit';
import { tokenVerifier } from './token-verifier';

export function api(route: Route, handle: ApiHandler) {
  return createApi(route, handle, {
    ...kernelRuntime,
    authenticate: bearerAuthentication(route, { verifier: tokenVerifier, policies: clientPolicies }),
    admit: admission(route),
    dialects: { problem: problemDialect },
    observers: observersOf(route, auditLog),
  });
}
