// Writing audit events to a tenant's audit log group: by the forwarder (functions/audit/forward.ts),
// which receives the functions' audit lines, and by the admin CLI's people commands. Each writer keeps
// a log stream of its own, created on first use; one message is one event's JSON.
import {
  type CloudWatchLogsClient,
  CreateLogStreamCommand,
  PutLogEventsCommand,
  ResourceAlreadyExistsException,
} from '@aws-sdk/client-cloudwatch-logs';
import type { AuditEvent } from './audit-event';
import type { AuditLog } from './audit-log';

/**
 * CloudWatch Logs takes at most 10,000 events and 1,048,576 bytes a call, counting each message's UTF-8
 * bytes and 26 more: an event naming many ids (up to IDS_PER_EVENT of each) is tens of kilobytes, so a
 * call is cut at whichever of its bounds comes first.
 */
const EVENTS_PER_CALL = 500;
const BYTES_PER_CALL = 1_048_576;
const OVERHEAD_BYTES = 26;

/** Consecutive runs of log events that each fit one call. */
function batches<T extends { message: string }>(events: readonly T[]): T[][] {
  const calls: T[][] = [];
  let call: T[] = [];
  let bytes = 0;
  for (const event of events) {
    const size = Buffer.byteLength(event.message) + OVERHEAD_BYTES;
    if (call.length > 0 && (call.length === EVENTS_PER_CALL || bytes + size > BYTES_PER_CALL)) {
      calls.push(call);
      call = [];
      bytes = 0;
    }
    call.push(event);
    bytes += size;
  }
  if (call.length > 0) calls.push(call);
  return calls;
}

export class AuditGroupWriter {
  private readonly created = new Set<string>();

  constructor(
    private readonly client: CloudWatchLogsClient,
    private readonly logGroupName: string,
  ) {}

  /** Writes events, oldest first as CloudWatch Logs requires, to a stream it creates if need be. */
  async put(logStreamName: string, events: readonly AuditEvent[]): Promise<void> {
    if (events.length === 0) return;
    await this.ensureStream(logStreamName);
    const logEvents = [...events]
      .sort((a, b) => a.time.localeCompare(b.time))
      .map((event) => ({ timestamp: Date.parse(event.time), message: JSON.stringify(event) }));
    for (const call of batches(logEvents)) {
      await this.client.send(
        new PutLogEventsCommand({ logGroupName: this.logGroupName, logStreamName, logEvents: call }),
      );
    }
  }

  private async ensureStream(logStreamName: string): Promise<void> {
    if (this.created.has(logStreamName)) return;
    try {
      await this.client.send(new CreateLogStreamCommand({ logGroupName: this.logGroupName, logStreamName }));
    } catch (error) {
      if (!(error instanceof ResourceAlreadyExistsException)) throw error;
    }
    this.created.add(logStreamName);
  }
}

/** An audit log that writes each event straight to the group, in one stream: the admin CLI's. */
export const auditGroupLog = (writer: AuditGroupWriter, logStreamName: string): AuditLog => ({
  write: (event) => writer.put(logStreamName, [event]),
});
