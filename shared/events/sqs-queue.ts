// The deployed delivery queue: the tenant's SQS FIFO queue. Messages of one subscription and record share
// a message group, so SQS hands them over in order, one at a time, and a failing one holds back the
// later ones of its record only; a message's deduplication id is its event's and subscription's (and
// replay's), so a stream batch sent again within five minutes queues nothing twice.
import { createHash } from 'node:crypto';
import { SendMessageBatchCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { type DeliveryQueue, orderingKey, type QueuedDelivery } from './queue';

/** The most messages one SendMessageBatch takes. */
const BATCH = 10;

const deduplicationId = ({ webhook_id, event, replay_id }: QueuedDelivery) =>
  createHash('sha256')
    .update(`${webhook_id}:${event.event_id}:${replay_id ?? ''}`)
    .digest('hex');

export class SqsDeliveryQueue implements DeliveryQueue {
  constructor(
    private readonly sqs: SQSClient,
    private readonly queueUrl: string,
  ) {}

  async send(deliveries: readonly QueuedDelivery[]): Promise<void> {
    for (let i = 0; i < deliveries.length; i += BATCH) {
      const batch = deliveries.slice(i, i + BATCH);
      const { Failed = [] } = await this.sqs.send(
        new SendMessageBatchCommand({
          QueueUrl: this.queueUrl,
          Entries: batch.map((delivery, n) => ({
            Id: String(n),
            MessageBody: JSON.stringify(delivery),
            MessageGroupId: orderingKey(delivery),
            MessageDeduplicationId: deduplicationId(delivery),
          })),
        }),
      );
      // The stream hands the batch over again: what was queued is deduplicated, what failed is queued.
      if (Failed.length > 0) {
        throw new Error(
          `The delivery queue refused ${Failed.length} messages: ${Failed[0]?.Code} ${Failed[0]?.Message}`,
        );
      }
    }
  }
}
