// The kept change events (docs/events.md, "Limits"): spread over 16 partitions by record, so a bulk
// import's events share no partition, and walked for a replay a shard after another, full pages
// across them, which still gives every event in the window once and each record's events in the order
// they were made.
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ensureTable } from '../infra/local/bootstrap';
import { createDocumentClient } from '../shared/data/document-client';
import { itemKinds, shardPartitions } from '../shared/data/item-kinds';
import { keys } from '../shared/data/keys';
import { type EventPosition, eventShard, WebhookRepository } from '../shared/data/webhook-repository';
import type { ChangeEvent } from '../shared/events/change-events';

const tableName = `webhook-events-${Date.now()}`;
const db = createDocumentClient({ region: 'eu-west-1', endpoint: inject('dynamodbEndpoint') });
const webhooks = new WebhookRepository(db, tableName);

const RECORDS = 60;
const EVENTS_A_RECORD = 3;
const start = Date.parse('2026-11-01T08:00:00Z');
const at = (second: number) => new Date(start + second * 1000).toISOString();

/** Each record created, updated and updated again, the records' changes interleaved in time. */
const events: ChangeEvent[] = Array.from({ length: RECORDS * EVENTS_A_RECORD }, (_, n) => {
  const record = n % RECORDS;
  const step = Math.floor(n / RECORDS);
  return {
    event_id: `evt_${String(n).padStart(4, '0')}`,
    type: step === 0 ? 'students.created' : 'students.updated',
    record_id: `00000000-0000-4000-8000-${String(record).padStart(12, '0')}`,
    at: at(n),
  };
});

beforeAll(async () => {
  await ensureTable(db, tableName, { stream: false });
  await webhooks.recordEvents(events);
});
afterAll(() => db.destroy());

/** The replay's walk from its start, a page at a time, as the stream function makes it. */
async function walk(window: { since: string; until: string }, limit: number) {
  const pages: ChangeEvent[][] = [];
  let position: EventPosition | undefined = { shard: 0, after: undefined };
  while (position) {
    const page: { events: ChangeEvent[]; next: EventPosition | undefined } = await webhooks.eventsWithin({
      ...window,
      ...position,
      limit,
    });
    pages.push(page.events);
    position = page.next;
  }
  return pages;
}

describe('the kept change events', () => {
  it('lie in the shard their record picks, spread over the shards', async () => {
    const partitions = shardPartitions(keys.webhookEventPartition);
    expect(partitions).toHaveLength(itemKinds.webhookEvent.partition.shards);
    const held = await Promise.all(
      partitions.map(async (pk) => {
        const { Items = [] } = await db.send(
          new QueryCommand({
            TableName: tableName,
            KeyConditionExpression: 'pk = :pk',
            ExpressionAttributeValues: { ':pk': pk },
          }),
        );
        return Items;
      }),
    );
    held.forEach((items, shard) => {
      for (const item of items) expect(eventShard(String(item.record_id))).toBe(shard);
    });
    expect(held.flat()).toHaveLength(events.length);
    // 60 records over 16 shards: none takes more than a fair share several times over.
    expect(held.filter((items) => items.length > 0).length).toBeGreaterThanOrEqual(12);
    expect(Math.max(...held.map((items) => items.length))).toBeLessThanOrEqual(events.length / 4);
  });

  it('are walked shard after shard in full pages: every event of the window once, each record’s in order', async () => {
    const window = { since: at(30), until: at(149) };
    const pages = await walk(window, 7);
    // Full pages but the last, each through the shards in order.
    for (const page of pages.slice(0, -1)) expect(page).toHaveLength(7);
    for (const page of pages) {
      const shards = page.map((event) => eventShard(event.record_id));
      expect(shards).toEqual([...shards].sort((a, b) => a - b));
    }
    const walked = pages.flat();
    const expected = events.filter((event) => event.at >= window.since && event.at <= window.until);
    expect(walked.map((event) => event.event_id).sort()).toEqual(
      expected.map((event) => event.event_id).sort(),
    );
    for (let record = 0; record < RECORDS; record++) {
      const id = `00000000-0000-4000-8000-${String(record).padStart(12, '0')}`;
      const times = walked.filter((event) => event.record_id === id).map((event) => event.at);
      expect(times).toEqual([...times].sort());
    }
  });
});
