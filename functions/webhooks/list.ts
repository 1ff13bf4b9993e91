// GET /api/webhooks
import { listWebhooksRequest } from '../../shared/events/webhook-reads';
import { serviceRoute } from '../../shared/service-routes';
import { api } from '../../shared/wiring/api';
import { webhookRepository } from '../../shared/wiring/webhook-repository';

export const handler = api(serviceRoute('list-webhooks'), (request) =>
  listWebhooksRequest(request, webhookRepository()),
);
