// The table's stream (DynamoDB event source, filtered to records, deletions and replays): change events
// kept for replay and queued for each subscription that wants them (docs/events.md). A batch that fails
// is handed over again; what it already queued is deduplicated by the FIFO queue.
import { SQSClient } from '@aws-sdk/client-sqs';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { parseEventsConfig } from '../../shared/config';
import type { StreamRecord } from '../../shared/events/change-events';
import { fanOutOf } from '../../shared/events/fan-out-parts';
import { SqsDeliveryQueue } from '../../shared/events/sqs-queue';

const config = parseEventsConfig(process.env);
if (!config.deliveryQueueUrl) throw new Error('DELIVERY_QUEUE_URL must be set for the stream function');
const { fanOut } = fanOutOf(
  config,
  new SqsDeliveryQueue(new SQSClient({ region: config.region }), config.deliveryQueueUrl),
);

export const handler = async (event: DynamoDBStreamEvent) => {
  await fanOut.handle(event.Records as StreamRecord[]);
};
