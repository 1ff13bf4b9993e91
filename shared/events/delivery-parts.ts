// The delivery function's parts, built once per cold start from the events configuration: the
// subscriptions, clients and records it reads, and the sender that reaches only allowed addresses.
import packageJson from '../../package.json' with { type: 'json' };
import type { EventsConfig } from '../config';
import { ClientRepository } from '../data/client-repository';
import { createDocumentClient } from '../data/document-client';
import { RecordRepository } from '../data/record-repository';
import { WebhookRepository } from '../data/webhook-repository';
import { WebhookDelivery } from './delivery';
import { httpSender } from './http-sender';

const USER_AGENT = `school-api-webhooks/${packageJson.version}`;

export function deliveryOf(config: EventsConfig) {
  const db = createDocumentClient({ region: config.region, endpoint: config.dynamodbEndpoint });
  const delivery = new WebhookDelivery({
    webhooks: new WebhookRepository(db, config.tableName),
    clients: new ClientRepository(db, config.tableName),
    records: new RecordRepository(db, config.tableName),
    send: httpSender({ loopback: config.webhookLoopback }, USER_AGENT),
    tenantId: config.tenantId,
    retryBaseMs: config.webhookRetryBaseMs,
  });
  return { db, delivery };
}
