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

/** CloudWatch Logs takes at most 10,000 events a call (and 1 MB, far more than this many audit events). */
const EVENTS_PER_CALL = 500;

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
    const sorted = [...events].sort((a, b) => a.time.localeCompare(b.time));
    for (let i = 0; i < sorted.length; i += EVENTS_PER_CALL) {
      await this.client.send(
        new PutLogEventsCommand({
          logGroupName: this.logGroupName,
          logStreamName,
          logEvents: sorted.slice(i, i + EVENTS_PER_CALL).map((event) => ({
            timestamp: Date.parse(event.time),
            message: JSON.stringify(event),
          })),
        }),
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
