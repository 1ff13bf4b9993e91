// The delivery queue's consumer (SQS FIFO event source, one message an invocation): makes the attempt
// the message's receive count numbers. A failed attempt leaves the message in the queue, hidden for the
// backoff's wait, which holds back the later events of its record; after its last attempt SQS moves
// it to the dead-letter queue (maxReceiveCount is WEBHOOK_ATTEMPTS).
import { ChangeMessageVisibilityCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { parseEventsConfig } from '../../shared/config';
import { deliveryOf } from '../../shared/events/delivery-parts';
import type { QueuedDelivery } from '../../shared/events/queue';

const config = parseEventsConfig(process.env);
if (!config.deliveryQueueUrl) throw new Error('DELIVERY_QUEUE_URL must be set for the delivery function');
const queueUrl = config.deliveryQueueUrl;
const { delivery } = deliveryOf(config);
const sqs = new SQSClient({ region: config.region });
/** The longest SQS hides a message for. */
const LONGEST_VISIBILITY_SECONDS = 43_200;

export const handler = async (event: SQSEvent): Promise<SQSBatchResponse> => {
  const batchItemFailures: SQSBatchResponse['batchItemFailures'] = [];
  for (const message of event.Records) {
    const attempt = Number(message.attributes.ApproximateReceiveCount);
    const outcome = await delivery.deliver(JSON.parse(message.body) as QueuedDelivery, attempt);
    if (outcome.kind === 'done') continue;
    const wait = outcome.kind === 'retry' ? Math.ceil(outcome.delayMs / 1000) : 0;
    await sqs.send(
      new ChangeMessageVisibilityCommand({
        QueueUrl: queueUrl,
        ReceiptHandle: message.receiptHandle,
        VisibilityTimeout: Math.min(wait, LONGEST_VISIBILITY_SECONDS),
      }),
    );
    batchItemFailures.push({ itemIdentifier: message.messageId });
  }
  return { batchItemFailures };
};
