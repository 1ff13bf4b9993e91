// The local run's stream reader (docs/events.md, "Locally") over DynamoDB Local: a change the fan-out
// cannot take holds up neither the changes after it nor the run's stop. As the deployed event source
// does (infra/tenant-events.ts), its batch is split down to it and it is set aside after the last retry.
import { randomUUID } from 'node:crypto';
import { CreateTableCommand, DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { parseEventsConfig } from '../../shared/config';
import { createDocumentClient } from '../../shared/data/document-client';
import { keys } from '../../shared/data/keys';
import { createTableInput } from '../../shared/data/table';
import { WebhookRepository } from '../../shared/data/webhook-repository';
import { STREAM_RETRY_ATTEMPTS } from '../../shared/events/stream-source';
import { startLocalEvents } from './event-delivery';

const endpoint = inject('dynamodbEndpoint');
const tableName = `events-${randomUUID()}`;
const db = createDocumentClient({ region: 'eu-west-1', endpoint });
const config = parseEventsConfig({ TABLE_NAME: tableName, TENANT_ID: 'demo', DYNAMODB_ENDPOINT: endpoint });

beforeAll(async () => {
  await db.send(new CreateTableCommand(createTableInput(tableName)));
});
afterAll(async () => {
  await db.send(new DeleteTableCommand({ TableName: tableName }));
  db.destroy();
});

/** A student's item (its keys, id, version and change time), or one without the change time, of which no event can be made. */
const student = (updatedAt?: string) => {
  const id = randomUUID();
  return { ...keys.record('students', id), student_id: id, _version: 1, updated_at: updatedAt };
};

/** How long a test waits for the reader to act on a change. */
const WAIT_MS = 20_000;
/** How long the reader may take to start reading: it opens its shards after it starts. */
const READING_MS = 60_000;
/**
 * What a test may take: the start of the reading and its own waits, so a slow machine fails a test on its
 * expectation, with what it waited for, rather than on the runner's timeout.
 */
const TEST_MS = READING_MS + 3 * WAIT_MS;

const until = async (done: () => boolean | Promise<boolean>, ms = WAIT_MS) => {
  for (const end = Date.now() + ms; Date.now() < end; ) {
    if (await done()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
};

/** The ids of the records whose events are kept. */
const keptIds = async () => {
  const window = {
    since: new Date(Date.now() - 600_000).toISOString(),
    until: new Date(Date.now() + 60_000).toISOString(),
  };
  const { events } = await new WebhookRepository(db, tableName).eventsWithin({ ...window, limit: 100 });
  return events.map((e) => e.record_id);
};

/**
 * Starts the reader and waits until it is reading. It reads the changes made once its shards are open,
 * which on a loaded machine can be after the first probe was written: a new probe is written every few
 * seconds until one is kept.
 */
async function startReading(retryMs: number, lines: string[]) {
  const events = await startLocalEvents(config, (line) => lines.push(line), retryMs);
  const probes: string[] = [];
  const kept = async () => (await keptIds()).some((id) => probes.includes(id));
  let reading = false;
  for (const end = Date.now() + READING_MS; !reading && Date.now() < end; ) {
    const probe = student(new Date().toISOString());
    probes.push(probe.student_id);
    await db.send(new PutCommand({ TableName: tableName, Item: probe }));
    reading = await until(kept, 5_000);
  }
  if (!reading) await events.stop();
  expect(
    reading,
    `none of ${probes.length} probes kept; the reader said: ${lines.join(' | ') || 'nothing'}`,
  ).toBe(true);
  return events;
}

it('sets a change it cannot make an event of aside after the last retry, and goes on with the next', {
  timeout: TEST_MS,
}, async () => {
  const lines: string[] = [];
  const events = await startReading(5, lines);
  try {
    const broken = student();
    const fine = student(new Date().toISOString());
    await db.send(new PutCommand({ TableName: tableName, Item: broken }));
    await db.send(new PutCommand({ TableName: tableName, Item: fine }));
    expect(await until(async () => (await keptIds()).includes(fine.student_id))).toBe(true);
    expect(await until(() => lines.some((l) => l.includes('set aside')))).toBe(true);
    const setAside = lines.filter((l) => l.includes('set aside'));
    expect(setAside).toHaveLength(1);
    expect(setAside[0]).toContain(`failed ${STREAM_RETRY_ATTEMPTS + 1} times`);
    // Narrowed down to the one change: its sequence number alone.
    expect(setAside[0]).toMatch(/set aside the changes \d+: /);
    expect(await keptIds()).not.toContain(broken.student_id);
  } finally {
    await events.stop();
  }
});

it('stops while a change is failing, without waiting out its retries', { timeout: TEST_MS }, async () => {
  const lines: string[] = [];
  const events = await startReading(60_000, lines);
  await db.send(new PutCommand({ TableName: tableName, Item: student() }));
  expect(await until(() => lines.some((l) => l.startsWith('Change events failed, retrying')))).toBe(true);
  const started = Date.now();
  await events.stop();
  // The lister's wait (2 s) is the longest a stop waits; a retry's minute is not waited out.
  expect(Date.now() - started).toBeLessThan(10_000);
  expect(lines.filter((l) => l.includes('set aside'))).toEqual([]);
});
