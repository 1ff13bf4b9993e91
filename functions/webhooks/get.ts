// GET /api/webhooks/{webhook_id}
import { getWebhookRequest } from '../../shared/events/webhook-reads';
import { api } from '../../shared/wiring/api';
import { webhookRepository } from '../../shared/wiring/webhook-repository';

export const handler = api('get-webhook', (request) => getWebhookRequest(request, webhookRepository()));
