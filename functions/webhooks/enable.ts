// POST /api/webhooks/{webhook_id}/enable
import { enableWebhookRequest } from '../../shared/events/webhook-writes';
import { revocableApi } from '../../shared/wiring/revocable-api';
import { webhookRepository } from '../../shared/wiring/webhook-repository';

export const handler = revocableApi('enable-webhook', (request) =>
  enableWebhookRequest(request, webhookRepository()),
);
