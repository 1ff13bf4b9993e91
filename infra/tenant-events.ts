// A tenant's change events (docs/events.md): the table's stream feeds the stream function, which keeps
// each event for replay and queues one delivery per subscription on the tenant's FIFO delivery queue;
// the delivery function takes those one at a time and POSTs them to the subscribers. A delivery that
// fails its last attempt ends in the dead-letter queue, a stream batch that fails every retry in a queue
// of its own. Each function's whole grant is written on its role here, from the partitions its code
// touches (shared/events/partitions.ts): no grant* call adds a policy of CDK's choosing.
import { Duration, type RemovalPolicy } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as kms from 'aws-cdk-lib/aws-kms';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as logs from 'aws-cdk-lib/aws-logs';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { WEBHOOK_ATTEMPTS } from '../shared/events/backoff';
import { deliveryFunctionAccess, streamFunctionAccess, streamPartitions } from '../shared/events/partitions';
import { STREAM_BATCH_SIZE, STREAM_RETRY_ATTEMPTS } from '../shared/events/stream-source';
import { keyStatement, partitionStatements } from './access';
import { eventDeliveryEntry, eventStreamEntry } from './bundling';
import { ServiceFunction } from './constructs/service-function';
import { acknowledge } from './nag-acknowledgements';
import type { Tenant } from './tenants';

/** One delivery: the subscriber's answer (10 s at most, shared/events/http-sender.ts) and the reads around it. */
export const DELIVERY_TIMEOUT = Duration.seconds(30);
/**
 * One stream batch: up to 100 records kept and queued, or a page of 500 kept events a replay sends
 * again, each a few DynamoDB and SQS calls.
 */
const STREAM_TIMEOUT = Duration.minutes(1);
/** Lambda's advice for a queue it polls: six times the function's timeout, so a retried batch is not seen twice. */
const DELIVERY_VISIBILITY = Duration.seconds(6 * DELIVERY_TIMEOUT.toSeconds());
/** SQS's longest: a dead-lettered delivery or a failed batch stays for a fortnight of looking into it. */
const RETENTION = Duration.days(14);

export interface TenantEventsProps {
  tenant: Tenant;
  /** The tenant's table, with its stream (shared/data/table.ts). */
  table: dynamodb.Table;
  /** The tenant key: it encrypts the queues as it does the table. */
  key: kms.IKey;
  logGroup: logs.ILogGroup;
  removalPolicy: RemovalPolicy;
}

export class TenantEvents extends Construct {
  /** The deliveries queued by the stream function, in order per subscription and record. */
  readonly deliveryQueue: sqs.Queue;
  /** Deliveries that failed all WEBHOOK_ATTEMPTS attempts; their subscription is disabled. */
  readonly deadLetterQueue: sqs.Queue;
  /**
   * Where Lambda puts what it knows of a stream batch that failed every retry: the shard and sequence
   * numbers, not the records, which the stream keeps for 24 hours.
   */
  readonly failedStreamBatches: sqs.Queue;
  readonly streamFunction: ServiceFunction;
  readonly deliveryFunction: ServiceFunction;

  constructor(scope: Construct, id: string, props: TenantEventsProps) {
    super(scope, id);
    const { tenant, table, key, logGroup, removalPolicy } = props;
    const streamArn = table.tableStreamArn;
    if (streamArn === undefined) {
      throw new Error('Change events need the table stream that shared/data/table.ts defines');
    }
    // The tenant key, as for the table: the queues hold event ids and record ids of the tenant's people.
    const queueSettings = {
      encryption: sqs.QueueEncryption.KMS,
      encryptionMasterKey: key,
      enforceSSL: true,
      retentionPeriod: RETENTION,
      removalPolicy,
    };
    this.deadLetterQueue = new sqs.Queue(this, 'DeadLetterQueue', { ...queueSettings, fifo: true });
    this.deliveryQueue = new sqs.Queue(this, 'DeliveryQueue', {
      ...queueSettings,
      // A message group per subscription and record: SQS hands each record's events over in order, and a
      // failing one holds back its record's later events only (shared/events/sqs-queue.ts).
      fifo: true,
      // High-throughput FIFO: an import writes thousands of records at once, each its own group.
      deduplicationScope: sqs.DeduplicationScope.MESSAGE_GROUP,
      fifoThroughputLimit: sqs.FifoThroughputLimit.PER_MESSAGE_GROUP_ID,
      visibilityTimeout: DELIVERY_VISIBILITY,
      // Each receive is an attempt (functions/webhooks/deliver.ts): after the last, SQS dead-letters it.
      deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount: WEBHOOK_ATTEMPTS },
    });
    this.failedStreamBatches = new sqs.Queue(this, 'FailedStreamBatches', queueSettings);
    acknowledge(this.failedStreamBatches, 'failedStreamBatchesWithoutDlq');

    const environment = { TABLE_NAME: table.tableName, TENANT_ID: tenant.id, LOG_LEVEL: 'info' };
    this.streamFunction = new ServiceFunction(this, 'StreamFunction', {
      entry: eventStreamEntry,
      description: `event-stream: turns the table changes of tenant ${tenant.id} into change events and queues their deliveries`,
      environment: { ...environment, DELIVERY_QUEUE_URL: this.deliveryQueue.queueUrl },
      logGroup,
      tracing: tenant.tracing,
      statements: [
        ...partitionStatements(table, key, streamFunctionAccess, { viaIndexes: false, batchWrites: true }),
        // What Lambda's poller does with the function's role: read the stream's shards.
        new iam.PolicyStatement({
          actions: [
            'dynamodb:DescribeStream',
            'dynamodb:GetRecords',
            'dynamodb:GetShardIterator',
            'dynamodb:ListStreams',
          ],
          resources: [streamArn],
        }),
        // The deliveries it queues, and the batches Lambda gives up on, sent with the same role.
        new iam.PolicyStatement({
          actions: ['sqs:SendMessage'],
          resources: [this.deliveryQueue.queueArn, this.failedStreamBatches.queueArn],
        }),
        keyStatement(key, ['kms:GenerateDataKey', 'kms:Decrypt'], 'sqs'),
      ],
      timeout: STREAM_TIMEOUT,
    });
    this.streamFunction.addEventSourceMapping('TableStream', {
      eventSourceArn: streamArn,
      // A new mapping starts at the oldest record the stream keeps (24 hours), so the changes made
      // while the stack was deploying are events too.
      startingPosition: lambda.StartingPosition.TRIM_HORIZON,
      batchSize: STREAM_BATCH_SIZE,
      // A record the function cannot take is narrowed down to itself, and the rest of its batch goes on.
      bisectBatchOnError: true,
      retryAttempts: STREAM_RETRY_ATTEMPTS,
      // The role already holds the send (above): the destination is named, not granted again.
      onFailure: { bind: () => ({ destination: this.failedStreamBatches.queueArn }) },
      // Only the partitions whose changes are events or replays wake the function: tokens, counters and
      // sessions change far more often and are never an event.
      filters: [
        lambda.FilterCriteria.filter({
          dynamodb: { Keys: { pk: { S: lambda.FilterRule.or(...streamPartitions) } } },
        }),
      ],
    });

    this.deliveryFunction = new ServiceFunction(this, 'DeliveryFunction', {
      entry: eventDeliveryEntry,
      description: `event-delivery: sends the queued change events of tenant ${tenant.id} to their subscribers`,
      // The queue it hides a failed delivery in for its backoff.
      environment: { ...environment, DELIVERY_QUEUE_URL: this.deliveryQueue.queueUrl },
      logGroup,
      tracing: tenant.tracing,
      statements: [
        ...partitionStatements(table, key, deliveryFunctionAccess, { viaIndexes: true, batchWrites: false }),
        // Lambda's poller receives and deletes with the function's role; the function itself hides a
        // failed delivery for its backoff.
        new iam.PolicyStatement({
          actions: [
            'sqs:ReceiveMessage',
            'sqs:DeleteMessage',
            'sqs:GetQueueAttributes',
            'sqs:ChangeMessageVisibility',
          ],
          resources: [this.deliveryQueue.queueArn],
        }),
        keyStatement(key, ['kms:Decrypt'], 'sqs'),
      ],
      timeout: DELIVERY_TIMEOUT,
    });
    this.deliveryFunction.addEventSourceMapping('DeliveryQueue', {
      eventSourceArn: this.deliveryQueue.queueArn,
      // One attempt an invocation: its receive count is its attempt number, and its wait its own.
      batchSize: 1,
      reportBatchItemFailures: true,
    });
  }
}
