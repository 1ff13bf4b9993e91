// The audit forwarder's work: a CloudWatch Logs subscription delivers the functions' audit lines (the
// filter on the function log group matches `"message":"audit"`), gzipped and base64-encoded; each line's
// event goes to the tenant's audit log group, in a stream named after the function stream it came from.
import { gunzipSync } from 'node:zlib';
import type { CloudWatchLogsDecodedData, CloudWatchLogsEvent } from 'aws-lambda';
import type { AuditEvent } from './audit-event';
import type { AuditGroupWriter } from './audit-group';
import { AUDIT_MESSAGE } from './audit-log';

/** The subscription filter's pattern: the audit lines of shared/audit/audit-log.ts, nothing else. */
export const AUDIT_FILTER_PATTERN = `{ $.message = "${AUDIT_MESSAGE}" }`;

export function auditEventsOf(event: CloudWatchLogsEvent): { stream: string; events: AuditEvent[] } {
  const data = JSON.parse(
    gunzipSync(Buffer.from(event.awslogs.data, 'base64')).toString('utf8'),
  ) as CloudWatchLogsDecodedData;
  // CloudWatch Logs sends one CONTROL_MESSAGE when the subscription is created, to check the destination.
  if (data.messageType !== 'DATA_MESSAGE') return { stream: data.logStream, events: [] };
  const events = data.logEvents.flatMap(({ message }) => {
    const line = JSON.parse(message) as { message?: unknown; audit?: AuditEvent };
    return line.message === AUDIT_MESSAGE && line.audit ? [line.audit] : [];
  });
  return { stream: data.logStream, events };
}

export async function forwardAuditEvents(
  event: CloudWatchLogsEvent,
  writer: AuditGroupWriter,
): Promise<{ forwarded: number }> {
  const { stream, events } = auditEventsOf(event);
  await writer.put(stream, events);
  return { forwarded: events.length };
}
