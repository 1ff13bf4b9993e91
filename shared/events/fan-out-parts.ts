// The stream function's parts, built once per cold start from the events configuration: the fan-out
// over the tenant's table, onto the queue it is given (SQS deployed, the local queue in the local run).
import type { EventsConfig } from '../config';
import { createDocumentClient } from '../data/document-client';
import { WebhookRepository } from '../data/webhook-repository';
import { EventFanOut } from './fan-out';
import type { DeliveryQueue } from './queue';

export function fanOutOf(config: EventsConfig, queue: DeliveryQueue) {
  const db = createDocumentClient({ region: config.region, endpoint: config.dynamodbEndpoint });
  return { db, fanOut: new EventFanOut(new WebhookRepository(db, config.tableName), queue) };
}
