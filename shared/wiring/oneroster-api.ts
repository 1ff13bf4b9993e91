// The factory of the OneRoster binding's reads, by route id: the row of the binding's table
// (shared/oneroster/routes.ts) served by oneRosterRouteApi. Kept apart from api.ts so that the service's
// own routes carry nothing of the binding's error format.

import type { ApiHandler } from '../exchange';
import { type OneRosterRouteId, oneRosterRoutes } from '../oneroster/routes';
import { rowOf } from '../route';
import { oneRosterRouteApi } from './oneroster-route-api';

export const oneRosterApi = (routeId: OneRosterRouteId, handle: ApiHandler) =>
  oneRosterRouteApi(rowOf(oneRosterRoutes, routeId), handle);
