// Change events in the local run (docs/events.md, "Locally"): DynamoDB Local's stream of the tenant's
// table read as Lambda's event source reads it, shard by shard in order, into the same fan-out the
// deployed stream function runs; and a queue standing in for the tenant's SQS FIFO queue, which hands
// the same delivery code one message of a record at a time, hides a failed one for its backoff, and
// drops one after its last attempt as the dead-letter queue would take it.

import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import {
  type _Record,
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
} from '@aws-sdk/client-dynamodb-streams';
import type { EventsConfig } from '../../shared/config';
import type { StreamRecord } from '../../shared/events/change-events';
import type { Outcome, WebhookDelivery } from '../../shared/events/delivery';
import { deliveryOf } from '../../shared/events/delivery-parts';
import { fanOutOf } from '../../shared/events/fan-out-parts';
import { type DeliveryQueue, orderingKey, type QueuedDelivery } from '../../shared/events/queue';
import { STREAM_BATCH_SIZE, STREAM_RETRY_ATTEMPTS } from '../../shared/events/stream-source';

/** How long a shard with nothing new waits before it is read again. */
const POLL_MS = 100;
/** How often the stream's shards are listed, to find new ones. */
const SHARDS_MS = 2_000;
/** Deliveries in flight at once, over all records: a bulk import does not open a socket per record. */
const IN_FLIGHT = 32;

export interface LocalEvents {
  stop(): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The local stand-in for the SQS FIFO queue: in order per record, a failed delivery hidden for its wait. */
export class LocalDeliveryQueue implements DeliveryQueue {
  private readonly records = new Map<string, { delivery: QueuedDelivery; attempt: number }[]>();
  private inFlight = 0;
  private readonly waiting: (() => void)[] = [];
  private stopped = false;

  constructor(
    private readonly delivery: WebhookDelivery,
    private readonly report: (line: string) => void,
  ) {}

  async send(deliveries: readonly QueuedDelivery[]): Promise<void> {
    for (const delivery of deliveries) {
      const key = orderingKey(delivery);
      const queued = this.records.get(key);
      if (queued) {
        queued.push({ delivery, attempt: 1 });
      } else {
        this.records.set(key, [{ delivery, attempt: 1 }]);
        void this.drain(key);
      }
    }
  }

  stop() {
    this.stopped = true;
  }

  /** Delivers one record's messages in order, each after the one before it is done with. */
  private async drain(key: string) {
    const queued = this.records.get(key) ?? [];
    while (queued.length > 0 && !this.stopped) {
      const head = queued[0] as (typeof queued)[number];
      const outcome = await this.attempt(head.delivery, head.attempt);
      if (outcome.kind === 'retry') {
        head.attempt++;
        await sleep(outcome.delayMs);
        continue;
      }
      if (outcome.kind === 'dead') {
        this.report(
          `Webhook ${head.delivery.webhook_id}: event ${head.delivery.event.event_id} dead-lettered`,
        );
      }
      queued.shift();
    }
    this.records.delete(key);
  }

  private async attempt(delivery: QueuedDelivery, attempt: number): Promise<Outcome> {
    while (this.inFlight >= IN_FLIGHT) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.inFlight++;
    try {
      return await this.delivery.deliver(delivery, attempt);
    } catch (error) {
      // As SQS would: the message comes back after its visibility timeout, counted as an attempt.
      this.report(`Webhook delivery failed: ${error instanceof Error ? error.message : String(error)}`);
      return { kind: 'retry', delayMs: 1_000 };
    } finally {
      this.inFlight--;
      this.waiting.shift()?.();
    }
  }
}

/**
 * Reads the table's stream from now on and delivers its events to the tenant's webhooks; a failed batch
 * is tried again after `retryMs`.
 */
export async function startLocalEvents(
  config: EventsConfig,
  report: (line: string) => void = (line) => console.error(line),
  retryMs = 1_000,
): Promise<LocalEvents> {
  const delivering = deliveryOf(config);
  const queue = new LocalDeliveryQueue(delivering.delivery, report);
  const { db, fanOut } = fanOutOf(config, queue);
  const streams = new DynamoDBStreamsClient({
    region: config.region,
    ...(config.dynamodbEndpoint
      ? { endpoint: config.dynamodbEndpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }
      : {}),
  });
  const { Table } = await db.send(new DescribeTableCommand({ TableName: config.tableName }));
  const streamArn = Table?.LatestStreamArn;
  if (!streamArn) throw new Error(`The table ${config.tableName} has no stream`);
  let stopped = false;
  let endWaits = () => {};
  /** Settles when the run stops: a batch waiting to be tried again waits no longer. */
  const stopping = new Promise<void>((resolve) => {
    endWaits = resolve;
  });
  const reading = new Map<string, Promise<void>>();

  const readShard = async (shardId: string, from: 'LATEST' | 'TRIM_HORIZON') => {
    let { ShardIterator: iterator } = await streams.send(
      new GetShardIteratorCommand({ StreamArn: streamArn, ShardId: shardId, ShardIteratorType: from }),
    );
    while (iterator && !stopped) {
      const page = await streams.send(new GetRecordsCommand({ ShardIterator: iterator, Limit: 1000 }));
      const records = page.Records ?? [];
      for (let start = 0; start < records.length; start += STREAM_BATCH_SIZE) {
        await handOver(records.slice(start, start + STREAM_BATCH_SIZE));
      }
      iterator = page.NextShardIterator;
      if (records.length === 0) await sleep(POLL_MS);
    }
  };

  /**
   * As the deployed event source does (infra/tenant-events.ts): a batch that fails is split in two and
   * each half handed over again, up to STREAM_RETRY_ATTEMPTS times, so a record the fan-out cannot take
   * is narrowed down to itself; one that still fails is reported and set aside, as the failed-batch queue
   * takes it, and the shard goes on. Nothing is tried again once the run is stopping.
   */
  const handOver = async (records: _Record[], attempt = 0): Promise<void> => {
    if (stopped) return;
    try {
      await fanOut.handle(records as StreamRecord[]);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      if (attempt >= STREAM_RETRY_ATTEMPTS) {
        const changes = records.map((r) => r.dynamodb?.SequenceNumber).join(', ');
        report(`Change events failed ${attempt + 1} times; set aside the changes ${changes}: ${reason}`);
        return;
      }
      report(`Change events failed, retrying: ${reason}`);
      await Promise.race([sleep(retryMs), stopping]);
      const half = Math.ceil(records.length / 2);
      for (const part of records.length > 1 ? [records.slice(0, half), records.slice(half)] : [records]) {
        await handOver(part, attempt + 1);
      }
    }
  };

  const listShards = async (from: 'LATEST' | 'TRIM_HORIZON') => {
    const { StreamDescription } = await streams.send(new DescribeStreamCommand({ StreamArn: streamArn }));
    for (const shard of StreamDescription?.Shards ?? []) {
      const id = shard.ShardId;
      if (!id || reading.has(id)) continue;
      // A child shard is read once its parent is: the parent holds the item's earlier changes.
      const parent = shard.ParentShardId ? reading.get(shard.ParentShardId) : undefined;
      reading.set(
        id,
        (parent ?? Promise.resolve())
          .then(() => readShard(id, from))
          .catch((error: unknown) => {
            if (!stopped) report(`Reading the stream's shard ${id} failed: ${String(error)}`);
          }),
      );
    }
  };

  await listShards('LATEST');
  const lister = (async () => {
    while (!stopped) {
      await sleep(SHARDS_MS);
      if (!stopped) await listShards('TRIM_HORIZON').catch(() => undefined);
    }
  })();

  return {
    async stop() {
      stopped = true;
      endWaits();
      queue.stop();
      await Promise.all([lister, ...reading.values()]);
      streams.destroy();
      db.destroy();
      delivering.db.destroy();
    },
  };
}
