// DELETE /api/webhooks/{webhook_id}
import { deleteWebhookRequest } from '../../shared/events/webhook-writes';
import { serviceRoute } from '../../shared/service-routes';
import { revocableApi } from '../../shared/wiring/revocable-api';
import { webhookRepository } from '../../shared/wiring/webhook-repository';

export const handler = revocableApi(serviceRoute('delete-webhook'), (request) =>
  deleteWebhookRequest(request, webhookRepository()),
);
