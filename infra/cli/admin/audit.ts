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

/** Epoch milliseconds of a Logs Insights `@timestamp` (`2026-09-01 10:00:00.123`, UTC). */
const insightsTime = (value: string) =>
  /^\d+$/.test(value) ? Number(value) : Date.parse(`${value.replace(' ', 'T')}Z`);

export interface LogGroupQueryOptions {
  wait?: (ms: number) => Promise<unknown>;
  /** Rows a query returns at most: Logs Insights' own limit, smaller in tests. */
  limit?: number;
}

/**
 * A deployed tenant's audit log group, through Logs Insights (each message is one event's JSON). A query
 * returns at most INSIGHTS_LIMIT rows, so they are asked for newest first and, while a query comes back
 * full, the next one ends at the oldest second it returned: no event is dropped however many there are.
 * The second where two queries meet is read by both; its events are kept once. More events than a query
 * returns within one second cannot be paged by time, and are refused rather than cut.
 */
export const logGroupAuditSource = (
  client: CloudWatchLogsClient,
  logGroupName: string,
  {
    wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms)),
    limit = INSIGHTS_LIMIT,
  }: LogGroupQueryOptions = {},
): AuditSource => {
  async function query(id: string, startTime: number, endTime: number) {
    const { queryId } = await client.send(
      new StartQueryCommand({
        logGroupName,
        startTime,
        endTime,
        // The id is a checked UUID, so it needs no quoting beyond the string's own.
        queryString: `fields @timestamp, @message | filter @message like "${id}" | sort @timestamp desc | limit ${limit}`,
      }),
    );
    for (;;) {
      const result = await client.send(new GetQueryResultsCommand({ queryId }));
      if (result.status === 'Complete') {
        return (result.results ?? []).map((row) => ({
          time: insightsTime(row.find((field) => field.field === '@timestamp')?.value ?? ''),
          message: row.find((field) => field.field === '@message')?.value,
        }));
      }
      if (result.status !== 'Running' && result.status !== 'Scheduled') {
        throw new Error(`the Logs Insights query ended ${result.status}`);
      }
      await wait(500);
    }
  }
  return {
    async mentioning(id, since) {
      const startTime = Math.floor(Date.parse(since) / 1000);
      const messages = new Set<string>();
      for (let endTime = Math.ceil(Date.now() / 1000); ; ) {
        const rows = await query(id, startTime, endTime);
        for (const { message } of rows) if (message?.includes(id)) messages.add(message);
        if (rows.length < limit) break;
        const oldest = Math.ceil(Math.min(...rows.map((row) => row.time)) / 1000);
        if (!(oldest < endTime)) {
          throw new Error(
            `more than ${limit} audit events mention ${id} within one second; list them from the audit log group directly.`,
          );
        }
        endTime = oldest;
      }
      return [...messages]
        .map((message) => JSON.parse(message) as AuditEvent)
        .filter((event) => event.time >= since)
        .sort((a, b) => a.time.localeCompare(b.time));
    },
  };
};
