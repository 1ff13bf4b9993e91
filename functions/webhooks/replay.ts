// POST /api/webhooks/{webhook_id}/replay
import { replayRequest } from '../../shared/events/webhook-writes';
import { serviceRoute } from '../../shared/service-routes';
import { revocableApi } from '../../shared/wiring/revocable-api';
import { webhookRepository } from '../../shared/wiring/webhook-repository';

export const handler = revocableApi(serviceRoute('replay-webhook'), (request) =>
  replayRequest(request, webhookRepository()),
);
