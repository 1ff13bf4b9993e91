// `audit person` on a deployed tenant reads the audit log group through Logs Insights, which returns at
// most a fixed number of rows a query: here moto's CloudWatch Logs, over HTTP, with a small limit, so the
// paging by time is exercised on a handful of events.
import { randomUUID } from 'node:crypto';
import {
  CloudWatchLogsClient,
  CreateLogGroupCommand,
  CreateLogStreamCommand,
  PutLogEventsCommand,
} from '@aws-sdk/client-cloudwatch-logs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, IDS_PER_EVENT } from '../../../shared/audit/audit-event';
import { AuditGroupWriter } from '../../../shared/audit/audit-group';
import { hasMotoServer, type MotoServer, startMotoServer } from '../../../test/support/moto-server';
import { auditOfPerson, logGroupAuditSource } from './audit';

let moto: MotoServer | undefined;
let client: CloudWatchLogsClient;
beforeAll(async () => {
  if (!hasMotoServer()) return;
  moto = await startMotoServer();
  client = new CloudWatchLogsClient({
    region: 'eu-west-1',
    endpoint: moto.endpoint,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
});
afterAll(async () => {
  client?.destroy();
  await moto?.stop();
});

/** A log group holding one audit event about `entityId` at each of `times` (epoch ms, ascending). */
async function logGroupWith(entityId: string, times: number[]): Promise<string> {
  const logGroupName = `/audit/${randomUUID()}`;
  await client.send(new CreateLogGroupCommand({ logGroupName }));
  await client.send(new CreateLogStreamCommand({ logGroupName, logStreamName: 'forwarded' }));
  await client.send(
    new PutLogEventsCommand({
      logGroupName,
      logStreamName: 'forwarded',
      logEvents: times.map((timestamp, i) => ({
        timestamp,
        message: JSON.stringify({
          time: new Date(timestamp).toISOString(),
          request_id: `request-${i}`,
          route: 'get-students',
          entity_ids: [entityId],
          record_ids: [],
          group: 'students',
        }),
      })),
    }),
  );
  return logGroupName;
}

describe.skipIf(!hasMotoServer())('the audit log group', () => {
  const noWait = { wait: async () => {} };

  it('gives every event, oldest first, when there are more than one query returns', async () => {
    const entityId = randomUUID();
    const start = Math.floor(Date.now() / 1000) * 1000 - 60_000;
    // Two events a second over five seconds, three rows a query: queries meet inside a second.
    const times = Array.from({ length: 10 }, (_, i) => start + Math.floor(i / 2) * 1000 + (i % 2) * 400);
    const logGroup = await logGroupWith(entityId, times);
    const since = new Date(start - 1000).toISOString();
    const events = await auditOfPerson(
      logGroupAuditSource(client, logGroup, { ...noWait, limit: 3 }),
      entityId,
      since,
    );
    expect(events.map((e) => e.request_id)).toEqual(times.map((_, i) => `request-${i}`));
  });

  it('refuses, rather than cuts, more events within one second than a query returns', async () => {
    const entityId = randomUUID();
    const start = Math.floor(Date.now() / 1000) * 1000 - 60_000;
    const logGroup = await logGroupWith(entityId, [start + 100, start + 200, start + 300, start + 400]);
    await expect(
      auditOfPerson(
        logGroupAuditSource(client, logGroup, { ...noWait, limit: 3 }),
        entityId,
        new Date(start - 1000).toISOString(),
      ),
    ).rejects.toThrow(/more than 3 audit events/);
  });

  it('finds a person named in any part of an answer split over several events, as the forwarder writes them', async () => {
    const entityId = randomUUID();
    const others = Array.from({ length: IDS_PER_EVENT * 2 }, () => randomUUID());
    const since = new Date(Date.now() - 60_000).toISOString();
    const parts = auditEvents({
      route: { id: 'list-oneroster-users', method: 'GET', access: 'read' },
      group: 'entities',
      requestId: 'filtered-list',
      auth: undefined,
      subject: { recordIds: [...others, entityId], entityIds: [...others, entityId] },
      outcome: 200,
    });
    expect(parts).toHaveLength(3);
    const logGroupName = `/audit/${randomUUID()}`;
    await client.send(new CreateLogGroupCommand({ logGroupName }));
    await new AuditGroupWriter(client, logGroupName).put('forwarded', parts);
    const found = await auditOfPerson(logGroupAuditSource(client, logGroupName, noWait), entityId, since);
    expect(found).toMatchObject([{ request_id: 'filtered-list', part: 3, parts: 3 }]);
  });
});
