// The factory of routes anyone may call, or that authenticate the client themselves (the token and
// revocation endpoints, the metadata, the docs): no token verifier, and so nothing of it in their bundles.
// The sign-in and logout pages answer their errors as pages, with page-api.ts, so that these carry none
// of the pages' texts.
import type { ApiHandler } from '../exchange';
import { createApi } from '../http/api';
import { oauthDialect, problemDialect } from '../http/dialect';
import type { Route } from '../route';
import { kernelRuntime } from './kernel-runtime';
import { observersOf } from './observers';

export function publicApi(route: Route, handle: ApiHandler) {
  return createApi(route, handle, {
    ...kernelRuntime,
    dialects: { problem: problemDialect, oauth: oauthDialect },
    observers: observersOf(route),
  });
}
