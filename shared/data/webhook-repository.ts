// Webhook subscriptions, the change events kept for replay, delivery attempts and replays in progress
// (docs/events.md; item-kinds.ts declares each). Subscriptions are few, so all of a tenant's are one
// small partition, read whole by the stream function and filtered by client for the API.
import {
  DeleteCommand,
  type DynamoDBDocumentClient,
  QueryCommand,
  type QueryCommandOutput,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { StateConflictError } from '../domain/errors';
import type { ChangeEvent } from '../events/change-events';
import type { EventTypePattern } from '../events/event-types';
import { itemKinds, shardPartition } from './item-kinds';
import { conditionHeld, ItemStore, putInBatches } from './items';
import { afterTime, keys } from './keys';

export interface WebhookSecret {
  secret: string;
  created_at: string;
  /** Set on a secret rotated out: it keeps signing until then. */
  expires_at?: string;
}

export interface Webhook {
  webhook_id: string;
  client_id: string;
  url: string;
  event_types: EventTypePattern[];
  status: 'active' | 'disabled';
  secrets: WebhookSecret[];
  created_at: string;
  updated_at: string;
  disabled_at?: string;
  disabled_reason?: string;
}

export type DeliveryOutcome = 'delivered' | 'failed' | 'dead-lettered';

export interface DeliveryAttempt {
  webhook_id: string;
  event_id: string;
  event_type: string;
  record_id: string;
  /** 1 for the first attempt at the event. */
  attempt: number;
  outcome: DeliveryOutcome;
  /** The receiver's status code, when it answered. */
  response_status?: number;
  latency_ms: number;
  attempted_at: string;
  /** When the event is tried again, after a failed attempt that is not its last. */
  next_attempt_at?: string;
  /** Why the attempt failed without an answer (a timeout, a refused address). */
  error?: string;
}

export interface Replay {
  replay_id: string;
  webhook_id: string;
  since: string;
  until: string;
  /** Where the next page starts: the shard of kept events it reads (0 until a page moves it on)... */
  shard?: number;
  /** ...and the sort key of the last event sent from that shard, once a page has been. */
  after?: string;
  requested_at: string;
}

/** Where a walk of the kept events is: a shard, and the last event read from it. */
export interface EventPosition {
  shard: number;
  after: string | undefined;
}

const EVENT_SHARDS = itemKinds.webhookEvent.partition.shards;

/** The shard of kept events a record's events go to: FNV-1a of its id, so every one of them goes to the same. */
export function eventShard(recordId: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < recordId.length; i++) hash = Math.imul(hash ^ recordId.charCodeAt(i), 0x01000193);
  return (hash >>> 0) % EVENT_SHARDS;
}

export class WebhookChangedError extends StateConflictError {
  constructor() {
    super('The subscription changed while this request was being made: read it again and retry.');
  }
}

/** The secrets that sign at `now`: the current one and any rotated out less than a day ago. */
export const signingSecrets = (webhook: Pick<Webhook, 'secrets'>, now: Date) =>
  webhook.secrets
    .filter((s) => s.expires_at === undefined || Date.parse(s.expires_at) > now.getTime())
    .map((s) => s.secret);

export class WebhookRepository {
  private readonly items: ItemStore;

  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {
    this.items = new ItemStore(db, tableName);
  }

  get(webhookId: string): Promise<Webhook | undefined> {
    return this.items.get<Webhook>(keys.webhook(webhookId));
  }

  /** Every subscription of the tenant. */
  all(): Promise<Webhook[]> {
    return this.items.query<Webhook>(keys.webhookPartition);
  }

  async create(webhook: Webhook): Promise<void> {
    await this.items.put(itemKinds.webhook, keys.webhook(webhook.webhook_id), webhook, { ifAbsent: true });
  }

  /** Writes `next` over `read`, unless it changed meanwhile. */
  async replace(read: Webhook, next: Webhook): Promise<void> {
    const written = await conditionHeld(
      this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: keys.webhook(read.webhook_id),
          UpdateExpression:
            'SET #status = :status, secrets = :secrets, updated_at = :updated, disabled_at = :disabledAt, disabled_reason = :reason',
          ConditionExpression: 'updated_at = :read',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: {
            ':status': next.status,
            ':secrets': next.secrets,
            ':updated': next.updated_at,
            ':disabledAt': next.disabled_at ?? null,
            ':reason': next.disabled_reason ?? null,
            ':read': read.updated_at,
          },
        }),
      ),
    );
    if (!written) throw new WebhookChangedError();
  }

  /** Disables an active subscription after its deliveries kept failing; false if it was not active. */
  disable(webhookId: string, reason: string, at: string): Promise<boolean> {
    return conditionHeld(
      this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: keys.webhook(webhookId),
          UpdateExpression:
            'SET #status = :disabled, disabled_at = :at, disabled_reason = :reason, updated_at = :at',
          ConditionExpression: '#status = :active',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: {
            ':disabled': 'disabled',
            ':active': 'active',
            ':at': at,
            ':reason': reason,
          },
        }),
      ),
    );
  }

  /** Deletes a client's subscription; false when it has none of that id. */
  delete(webhookId: string, clientId: string): Promise<boolean> {
    return conditionHeld(
      this.db.send(
        new DeleteCommand({
          TableName: this.tableName,
          Key: keys.webhook(webhookId),
          ConditionExpression: 'client_id = :client',
          ExpressionAttributeValues: { ':client': clientId },
        }),
      ),
    );
  }

  /**
   * Keeps change events for replay, each in the shard its record's id picks; a batch written again
   * writes the same items.
   */
  async recordEvents(events: readonly ChangeEvent[]): Promise<void> {
    await putInBatches(
      this.db,
      this.tableName,
      events.map(
        (event) =>
          this.items.putInput(
            itemKinds.webhookEvent,
            keys.webhookEvent(eventShard(event.record_id), event.at, event.event_id),
            event,
          ).Item,
      ),
    );
  }

  /**
   * A page of at most `limit` kept events from `since` up to `until` (both inclusive), from the position
   * `shard` and `after`; and where the next page starts, or nothing after the last shard. The shards are
   * walked in turn, each in time order, a Query each until the page is full, and a record's events all lie
   * in one shard, so they come in order.
   */
  async eventsWithin(window: {
    since: string;
    until: string;
    shard?: number | undefined;
    after?: string | undefined;
    limit: number;
  }): Promise<{ events: ChangeEvent[]; next: EventPosition | undefined }> {
    const events: ChangeEvent[] = [];
    let next: EventPosition | undefined = { shard: window.shard ?? 0, after: window.after };
    while (next && events.length < window.limit) {
      const shard: number = next.shard;
      const after: string | undefined = next.after;
      const pk = shardPartition(keys.webhookEventPartition, shard);
      const { Items = [], LastEvaluatedKey }: QueryCommandOutput = await this.db.send(
        new QueryCommand({
          TableName: this.tableName,
          KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :until',
          ExpressionAttributeValues: { ':pk': pk, ':from': window.since, ':until': afterTime(window.until) },
          ...(after ? { ExclusiveStartKey: { pk, sk: after } } : {}),
          Limit: window.limit - events.length,
        }),
      );
      for (const { event_id, type, record_id, at } of Items)
        events.push({ event_id, type, record_id, at } as ChangeEvent);
      next = LastEvaluatedKey
        ? { shard, after: String(LastEvaluatedKey.sk) }
        : shard + 1 < EVENT_SHARDS
          ? { shard: shard + 1, after: undefined }
          : undefined;
    }
    return { events, next };
  }

  async recordAttempt(attempt: DeliveryAttempt): Promise<void> {
    await this.items.put(
      itemKinds.webhookDelivery,
      keys.webhookDelivery(attempt.webhook_id, attempt.attempted_at, attempt.event_id),
      attempt,
    );
  }

  /** A subscription's latest attempts, newest first. */
  async attempts(webhookId: string, limit: number): Promise<DeliveryAttempt[]> {
    const { Items = [] } = await this.db.send(
      new QueryCommand({
        TableName: this.tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :webhook)',
        ExpressionAttributeValues: { ':pk': keys.webhookDeliveryPartition, ':webhook': `${webhookId}#` },
        ScanIndexForward: false,
        Limit: limit,
      }),
    );
    return Items.map(({ pk: _pk, sk: _sk, ttl: _ttl, ...attempt }) => attempt as DeliveryAttempt);
  }

  async startReplay(replay: Replay): Promise<void> {
    await this.items.put(itemKinds.webhookReplay, keys.webhookReplay(replay.replay_id), replay, {
      ifAbsent: true,
    });
  }

  /** Moves a replay on past the page just sent: the change is the stream record of its next page. */
  async advanceReplay(replayId: string, next: EventPosition): Promise<void> {
    await this.db.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: keys.webhookReplay(replayId),
        UpdateExpression:
          next.after === undefined
            ? 'SET #shard = :shard REMOVE #after'
            : 'SET #shard = :shard, #after = :after',
        ExpressionAttributeNames: { '#shard': 'shard', '#after': 'after' },
        ExpressionAttributeValues: {
          ':shard': next.shard,
          ...(next.after === undefined ? {} : { ':after': next.after }),
        },
      }),
    );
  }

  async endReplay(replayId: string): Promise<void> {
    await this.db.send(new DeleteCommand({ TableName: this.tableName, Key: keys.webhookReplay(replayId) }));
  }
}
