// The stream function's work (docs/events.md): each batch of the table's stream becomes change events,
// kept for replay, and one queued delivery per event and active subscription that wants its type; a
// replay a client asked for sends a page of kept events each time its item changes. Whether the
// subscriber may read the record is decided when the delivery is made, not here.
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { keys } from '../data/keys';
import type { Replay, WebhookRepository } from '../data/webhook-repository';
import { type ChangeEvent, changeOf, type StreamRecord } from './change-events';
import { wants } from './event-types';
import type { DeliveryQueue, QueuedDelivery } from './queue';

/** Kept events a replay sends with each of its stream records. */
export const REPLAY_PAGE = 500;

export class EventFanOut {
  constructor(
    private readonly webhooks: WebhookRepository,
    private readonly queue: DeliveryQueue,
  ) {}

  async handle(records: readonly StreamRecord[]): Promise<void> {
    const events = records.map(changeOf).filter((event): event is ChangeEvent => event !== undefined);
    if (events.length > 0) {
      await this.webhooks.recordEvents(events);
      const active = (await this.webhooks.all()).filter((webhook) => webhook.status === 'active');
      await this.queue.send(
        events.flatMap((event) =>
          active
            .filter((webhook) => wants(webhook.event_types, event.type))
            .map((webhook) => ({ webhook_id: webhook.webhook_id, event })),
        ),
      );
    }
    for (const replay of records.flatMap(replayOf)) await this.replayPage(replay);
  }

  /** Sends the next page of a replay's events, then moves it on, or ends it after its last page. */
  private async replayPage(replay: Replay): Promise<void> {
    const webhook = await this.webhooks.get(replay.webhook_id);
    const page = webhook
      ? await this.webhooks.eventsWithin({ ...replay, limit: REPLAY_PAGE })
      : { events: [], next: undefined };
    if (webhook) {
      const deliveries: QueuedDelivery[] = page.events
        .filter((event) => wants(webhook.event_types, event.type))
        .map((event) => ({ webhook_id: webhook.webhook_id, event, replay_id: replay.replay_id }));
      await this.queue.send(deliveries);
    }
    if (page.next !== undefined) await this.webhooks.advanceReplay(replay.replay_id, page.next);
    else await this.webhooks.endReplay(replay.replay_id);
  }
}

/** The replay a stream record starts or moves on, if it is one. */
function replayOf(record: StreamRecord): Replay[] {
  const { Keys, NewImage } = record.dynamodb ?? {};
  if (Keys?.pk?.S !== keys.webhookReplayPartition || !NewImage) return [];
  if (record.eventName !== 'INSERT' && record.eventName !== 'MODIFY') return [];
  return [unmarshall(NewImage as never) as Replay];
}
