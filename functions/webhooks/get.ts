// GET /api/webhooks/{webhook_id}
import { getWebhookRequest } from '../../shared/events/webhook-reads';
import { serviceRoute } from '../../shared/service-routes';
import { api } from '../../shared/wiring/api';
import { webhookRepository } from '../../shared/wiring/webhook-repository';

export const handler = api(serviceRoute('get-webhook'), (request) =>
  getWebhookRequest(request, webhookRepository()),
);
