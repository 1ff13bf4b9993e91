// GET /api/webhooks/{webhook_id}/deliveries
import { listDeliveriesRequest } from '../../shared/events/webhook-reads';
import { serviceRoute } from '../../shared/service-routes';
import { api } from '../../shared/wiring/api';
import { webhookRepository } from '../../shared/wiring/webhook-repository';

export const handler = api(serviceRoute('list-webhook-deliveries'), (request) =>
  listDeliveriesRequest(request, webhookRepository()),
);
