// GET /api/webhooks
import { listWebhooksRequest } from '../../shared/events/webhook-reads';
import { api } from '../../shared/wiring/api';
import { webhookRepository } from '../../shared/wiring/webhook-repository';

export const handler = api('list-webhooks', (request) => listWebhooksRequest(request, webhookRepository()));
