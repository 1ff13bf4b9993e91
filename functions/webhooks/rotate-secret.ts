// POST /api/webhooks/{webhook_id}/rotate-secret
import { rotateWebhookSecretRequest } from '../../shared/events/webhook-writes';
import { serviceRoute } from '../../shared/service-routes';
import { revocableApi } from '../../shared/wiring/revocable-api';
import { webhookRepository } from '../../shared/wiring/webhook-repository';

export const handler = revocableApi(serviceRoute('rotate-webhook-secret'), (request) =>
  rotateWebhookSecretRequest(request, webhookRepository()),
);
