// Composes the change events' parts once per cold start, from the events configuration: the stream
// function's fan-out and the delivery function's sender. The local run builds the same parts with its
// own queue (infra/local/event-delivery.ts).
import packageJson from '../../package.json' with { type: 'json' };
import type { EventsConfig } from '../config';
import { ClientRepository } from '../data/client-repository';
import { createDocumentClient } from '../data/document-client';
import { RecordRepository } from '../data/record-repository';
import { WebhookRepository } from '../data/webhook-repository';
import { WebhookDelivery } from './delivery';
import { EventFanOut } from './fan-out';
import { httpSender } from './http-sender';
import type { DeliveryQueue } from './queue';

export const WEBHOOK_USER_AGENT = `school-api-webhooks/${packageJson.version}`;

export function eventParts(config: EventsConfig) {
  const db = createDocumentClient({ region: config.region, endpoint: config.dynamodbEndpoint });
  const webhooks = new WebhookRepository(db, config.tableName);
  return {
    db,
    webhooks,
    fanOut: (queue: DeliveryQueue) => new EventFanOut(webhooks, queue),
    delivery: () =>
      new WebhookDelivery({
        webhooks,
        clients: new ClientRepository(db, config.tableName),
        records: new RecordRepository(db, config.tableName),
        send: httpSender({ loopback: config.webhookLoopback }, WEBHOOK_USER_AGENT),
        tenantId: config.tenantId,
        retryBaseMs: config.webhookRetryBaseMs,
      }),
  };
}
