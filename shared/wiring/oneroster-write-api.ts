// The factory of the OneRoster Gradebook binding's writes, given the row gradebookWriteRoute finds (so that
// a write's bundle holds the write rows alone, not the binding's whole table): the bearer-token factory
// with the binding's imsx_StatusInfo errors, refusing a person's token at once when its sign-in is revoked
// (`checksSignIn`), as the native writes do (revocable-api.ts).

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
import { refreshTokenRepository } from './refresh-token-repository';
import { tokenVerifier } from './token-verifier';

export function oneRosterWriteApi(route: Route, handle: ApiHandler) {
  return createApi(route, handle, {
    ...kernelRuntime,
    authenticate: bearerAuthentication(route, {
      verifier: tokenVerifier,
      signIns: refreshTokenRepository,
      policies: clientPolicies,
    }),
    admit: admission(route),
    dialects: { imsx: imsxDialect },
    observers: observersOf(route, auditLog),
  });
}
