// The factory the handlers of routes that take a bearer token use: the route's middy stack
// (shared/http/api.ts) with the process's configuration, logger and token verifier.

import { createApi } from '../http/api';
import type { ApiHandler } from '../http/exchange';
import { type RouteId, routeById } from '../routes';
import { auditLog } from './audit-log';
import { config, logger, metrics } from './context';
import { tokenVerifier } from './token-verifier';

export const api = (routeId: RouteId, handle: ApiHandler) =>
  createApi(routeById(routeId), handle, {
    config,
    logger,
    metrics,
    verifier: tokenVerifier,
    audit: auditLog,
  });
