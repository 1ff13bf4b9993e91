// What each factory adds after a request, from its route's declared fields: the audit event where the
// route declares `audit`, then the request's metrics.
import type { AuditLog } from '../audit/audit-log';
import { auditObserver } from '../audit/audit-observer';
import type { AccessToken } from '../auth/access-token';
import type { RequestObserver } from '../http/api';
import type { BusinessCount, RequestMetrics } from '../metrics';
import type { Route } from '../route';
import { logger, metrics } from './context';

/** The request's metrics: by route, with the records a successful write of a person group wrote. */
export function metricsObserver(route: Route, sink: () => RequestMetrics): RequestObserver<AccessToken> {
  return ({ status, touched, counts }) => {
    const written: BusinessCount[] =
      route.audit !== undefined && route.access === 'write' && status < 300 && touched
        ? [
            {
              name: 'RecordsWritten',
              value: touched.recordIds.length,
              dimension: { name: 'group', value: route.audit.group },
            },
          ]
        : [];
    sink().request(route.id, status, [...counts, ...written]);
  };
}

/** A route's observers; an audited route's wiring must give its audit log. */
export function observersOf(route: Route, audit?: () => AuditLog): RequestObserver<AccessToken>[] {
  if (route.audit !== undefined && !audit)
    throw new Error(`Route ${route.id} is audited: give it an audit log`);
  return [
    ...(route.audit !== undefined && audit ? [auditObserver(route, route.audit, audit, logger)] : []),
    metricsObserver(route, metrics),
  ];
}
