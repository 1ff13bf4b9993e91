// What the stream function hands the delivery side: one message per event and subscription that wants
// it, queued in order per record (docs/events.md, "Ordering"). Deployed, an SQS FIFO queue of the tenant
// (sqs-queue.ts); in the local run, the local queue (infra/local/event-delivery.ts).
import type { ChangeEvent } from './change-events';
import { groupOf } from './event-types';

export interface QueuedDelivery {
  webhook_id: string;
  event: ChangeEvent;
  /** The replay that sends the event again, if it is one. */
  replay_id?: string;
}

export interface DeliveryQueue {
  /** Queues the deliveries; those of one subscription and record keep the order given. */
  send(deliveries: readonly QueuedDelivery[]): Promise<void>;
}

/** The deliveries that must keep their order among themselves: one subscription's, of one record. */
export const orderingKey = ({ webhook_id, event }: QueuedDelivery) =>
  `${webhook_id}:${groupOf(event.type)}:${event.record_id}`;
