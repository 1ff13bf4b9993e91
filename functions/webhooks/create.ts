// POST /api/webhooks
import { createWebhookRequest } from '../../shared/events/webhook-writes';
import { serviceRoute } from '../../shared/service-routes';
import { revocableApi } from '../../shared/wiring/revocable-api';
import { webhookRepository } from '../../shared/wiring/webhook-repository';

export const handler = revocableApi(serviceRoute('create-webhook'), (request) =>
  createWebhookRequest(request, webhookRepository()),
);
