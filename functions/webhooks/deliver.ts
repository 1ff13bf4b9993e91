// The delivery queue's consumer (SQS FIFO event source, one message an invocation): makes the attempt
// the message's receive count numbers. A failed attempt leaves the message in the queue, hidden for the
// backoff's wait, which holds back the later events of its record; after its last attempt SQS moves
// it to the dead-letter queue (maxReceiveCount is WEBHOOK_ATTEMPTS).
import { ChangeMessageVisibilityCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { parseEventsConfig } from '../../shared/config';
import type { QueuedDelivery } from '../../shared/events/queue';
import { eventParts } from '../../shared/events/services';

const config = parseEventsConfig(process.env);
const delivery = eventParts(config).delivery();
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
        QueueUrl: queueUrlOf(message.eventSourceARN),
        ReceiptHandle: message.receiptHandle,
        VisibilityTimeout: Math.min(wait, LONGEST_VISIBILITY_SECONDS),
      }),
    );
    batchItemFailures.push({ itemIdentifier: message.messageId });
  }
  return { batchItemFailures };
};

/** A queue's URL from its ARN (arn:aws:sqs:<region>:<account>:<name>). */
function queueUrlOf(arn: string): string {
  const [, partition, , region, account, name] = arn.split(':');
  const domain = partition === 'aws-cn' ? 'amazonaws.com.cn' : 'amazonaws.com';
  return `https://sqs.${region}.${domain}/${account}/${name}`;
}
