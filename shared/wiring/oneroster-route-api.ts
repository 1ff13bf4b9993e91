// The factory of a OneRoster binding's route given its row: the bearer-token factory with the binding's
// imsx_StatusInfo errors. A Gradebook write's handler hands it the row gradebookWriteRoute finds, so that
// its bundle holds the write rows alone, not the binding's whole table (oneroster-api.ts finds a read's).

import { bearerAuthentication } from '../auth/authenticate';
import type { ApiHandler } from '../exchange';
import { createApi } from '../http/api';
import { imsxDialect } from '../oneroster/dialect';
import type { Route } from '../route';
import { auditLog } from './audit-log';
import { clientPolicies } from './client-policies';
import { kernelRuntime } from './kernel-runtime';
import { observersOf } from './observers';
import { admission } from './rate-limit';
import { tokenVerifier } from './token-verifier';

export function oneRosterRouteApi(route: Route, handle: ApiHandler) {
  return createApi(route, handle, {
    ...kernelRuntime,
    authenticate: bearerAuthentication(route, { verifier: tokenVerifier, policies: clientPolicies }),
    admit: admission(route),
    dialects: { imsx: imsxDialect },
    observers: observersOf(route, auditLog),
  });
}
