// The audit event of each request to a route that declares `audit` (shared/routes.ts), added to the route's
// factory by its wiring.
import type { AccessToken } from '../auth/access-token';
import type { RequestObserver } from '../http/api';
import type { Logger } from '../log';
import type { Route, RouteAudit } from '../route';
import { auditEvents, namedSubject } from './audit-event';
import type { AuditLog } from './audit-log';

/**
 * One audit event a request of a person group, whatever its outcome (several when it names more ids than
 * one log line holds): ids only, never content. It names what the handler says the answer told of, else
 * what a failure says it read (a 412's record), else the ids in the path. An event that cannot be written
 * (the local run's file, say) does not change the answer: a write has committed by then, and a 500 would
 * tell the client it had not. The failure is reported loudly instead, by an error log line and the
 * AuditWriteFailures metric. Deployed, the event is a line on standard output.
 */
export function auditObserver(
  route: Route,
  declared: RouteAudit,
  audit: () => AuditLog,
  logger: () => Logger,
): RequestObserver<AccessToken> {
  return async (outcome) => {
    const written = auditEvents({
      route,
      group: declared.group,
      requestId: outcome.requestId,
      auth: outcome.auth,
      subject: outcome.touched ?? namedSubject(declared, outcome.event.pathParameters ?? {}),
      outcome: outcome.status,
    });
    for (const part of written) {
      try {
        await audit().write(part);
      } catch (error) {
        logger().error('audit event not written', {
          request_id: part.request_id,
          route: route.id,
          status: outcome.status,
          record_ids: part.record_ids.join(','),
          entity_ids: part.entity_ids.join(','),
          error: error instanceof Error ? error.message : String(error),
        });
        outcome.counts.push({ name: 'AuditWriteFailures', value: 1 });
      }
    }
  };
}
