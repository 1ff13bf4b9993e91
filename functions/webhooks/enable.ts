// POST /api/webhooks/{webhook_id}/enable
import { enableWebhookRequest } from '../../shared/events/webhook-writes';
import { serviceRoute } from '../../shared/service-routes';
import { revocableApi } from '../../shared/wiring/revocable-api';
import { webhookRepository } from '../../shared/wiring/webhook-repository';

export const handler = revocableApi(serviceRoute('enable-webhook'), (request) =>
  enableWebhookRequest(request, webhookRepository()),
);
