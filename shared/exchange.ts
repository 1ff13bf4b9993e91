// The HTTP kernel's request and handler (http/exchange.ts) as this service fills them in: its callers are
// verified access tokens and its configuration is Config.
import type { AccessToken } from './auth/access-token';
import type { Config } from './config';
import type * as kernel from './http/exchange';

export type { ApiResponse } from './http/exchange';

export type ApiRequest = kernel.ApiRequest<AccessToken, Config>;

export type ApiHandler = kernel.ApiHandler<AccessToken, Config>;
