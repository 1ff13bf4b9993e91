// `audit person <entity_id>`: the audit events about a person's records, from the local run's audit file
// or a deployed tenant's audit log group. The log group is searched with CloudWatch Logs Insights for
// the id; every event found is checked again here, so an id that appears only inside another field (a
// request id, say) is not taken for the person.
import { readFile } from 'node:fs/promises';
import {
  type CloudWatchLogsClient,
  GetQueryResultsCommand,
  StartQueryCommand,
} from '@aws-sdk/client-cloudwatch-logs';
import type { AuditEvent } from '../../../shared/audit/audit-event';

/** How far back a listing reaches when no --since is given. */
export const DEFAULT_AUDIT_DAYS = 30;
/** Logs Insights returns at most this many rows a query. */
const INSIGHTS_LIMIT = 10_000;

export interface AuditSource {
  /** The audit events whose text mentions `id`, from `since` on, oldest first. */
  mentioning(id: string, since: string): Promise<AuditEvent[]>;
}

export const isAbout = (event: AuditEvent, entityId: string) =>
  event.entity_ids.includes(entityId) || (event.group === 'entities' && event.record_ids.includes(entityId));

export async function auditOfPerson(
  source: AuditSource,
  entityId: string,
  since: string | undefined,
  now = new Date(),
): Promise<AuditEvent[]> {
  const from = since ?? new Date(now.getTime() - DEFAULT_AUDIT_DAYS * 86_400_000).toISOString();
  const events = await source.mentioning(entityId, from);
  return events.filter((event) => isAbout(event, entityId)).sort((a, b) => a.time.localeCompare(b.time));
}

/** The local run's audit file: one line `{"message":"audit","audit":{...}}` an event. */
export const fileAuditSource = (file: string): AuditSource => ({
  async mentioning(id, since) {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    return text
      .split('\n')
      .filter((line) => line.includes(id))
      .map((line) => (JSON.parse(line) as { audit: AuditEvent }).audit)
      .filter((event) => event.time >= since);
  },
});

/** A deployed tenant's audit log group, through Logs Insights (each message is one event's JSON). */
export const logGroupAuditSource = (
  client: CloudWatchLogsClient,
  logGroupName: string,
  wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms)),
): AuditSource => ({
  async mentioning(id, since) {
    const { queryId } = await client.send(
      new StartQueryCommand({
        logGroupName,
        startTime: Math.floor(Date.parse(since) / 1000),
        endTime: Math.ceil(Date.now() / 1000),
        // The id is a checked UUID, so it needs no quoting beyond the string's own.
        queryString: `fields @timestamp, @message | filter @message like "${id}" | sort @timestamp asc | limit ${INSIGHTS_LIMIT}`,
      }),
    );
    for (;;) {
      const result = await client.send(new GetQueryResultsCommand({ queryId }));
      if (result.status === 'Complete') {
        return (result.results ?? []).flatMap((row) => {
          const message = row.find((field) => field.field === '@message')?.value;
          if (message === undefined || !message.includes(id)) return [];
          const event = JSON.parse(message) as AuditEvent;
          return event.time >= since ? [event] : [];
        });
      }
      if (result.status !== 'Running' && result.status !== 'Scheduled') {
        throw new Error(`the Logs Insights query ended ${result.status}`);
      }
      await wait(500);
    }
  },
});
