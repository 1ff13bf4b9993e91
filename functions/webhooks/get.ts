// GET /api/webhooks/{webhook_id}
import { getWebhookRequest } from '../../shared/events/webhook-admin';
import { api } from '../../shared/wiring/api';
import { webhookRepository } from '../../shared/wiring/webhook-repository';

export const handler = api('get-webhook', (request) => getWebhookRequest(request, webhookRepository()));
