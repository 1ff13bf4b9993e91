// The factory of the sign-in and logout pages: public routes, as public-api.ts makes them, that answer
// their errors as HTML pages in the reader's language (and a bad redirect as a problem).
import { pageDialect } from '../auth/page-dialect';
import type { ApiHandler } from '../exchange';
import { createApi } from '../http/api';
import { oauthDialect, problemDialect } from '../http/dialect';
import type { Route } from '../route';
import { config } from './context';
import { kernelRuntime } from './kernel-runtime';
import { observersOf } from './observers';

export function pageApi(route: Route, handle: ApiHandler) {
  return createApi(route, handle, {
    ...kernelRuntime,
    dialects: { problem: problemDialect, oauth: oauthDialect, page: pageDialect(config) },
    observers: observersOf(route),
  });
}
