// The webhooks API's reads as its handlers serve them (docs/events.md): a client's own subscriptions and
// their delivery attempts. Another client's subscription is not there for the caller: the same 404 as
// none. Kept apart from the writes, so that a read's bundle holds no request schema.
import type { DeliveryAttempt, Webhook, WebhookRepository } from '../data/webhook-repository';
import { RecordNotFoundError } from '../domain/errors';
import { LIMITS } from '../domain/limits';
import type { ApiRequest, ApiResponse } from '../exchange';
import type { WebhookSubscription } from '../schemas/webhooks';

const MAX_ID_LENGTH = 64;

export const callerOf = (request: ApiRequest) => {
  const clientId = request.auth?.clientId;
  if (clientId === undefined) throw new Error('A webhooks route without a token');
  return clientId;
};

/** What a client reads of its subscription: never a secret. */
export function subscriptionView(webhook: Webhook, now = new Date()): WebhookSubscription {
  const rotated = webhook.secrets
    .map((s) => s.expires_at)
    .filter((at): at is string => at !== undefined && Date.parse(at) > now.getTime())
    .sort()
    .at(-1);
  return {
    webhook_id: webhook.webhook_id,
    url: webhook.url,
    event_types: webhook.event_types,
    status: webhook.status,
    created_at: webhook.created_at,
    updated_at: webhook.updated_at,
    ...(webhook.disabled_at ? { disabled_at: webhook.disabled_at } : {}),
    ...(webhook.disabled_reason ? { disabled_reason: webhook.disabled_reason } : {}),
    ...(rotated ? { previous_secret_expires_at: rotated } : {}),
  };
}

export const webhookAddress = (request: ApiRequest, webhookId: string) =>
  `${request.config.publicBaseUrl}/api/webhooks/${encodeURIComponent(webhookId)}`;

export const noWebhook = (id: string) =>
  new RecordNotFoundError(`There is no webhook ${id.slice(0, MAX_ID_LENGTH)}.`);

/** The path's subscription id, or 404 for one no subscription could have. */
function webhookIdOf(request: ApiRequest): string {
  const id = request.path.webhook_id ?? '';
  if (id === '' || id.length > MAX_ID_LENGTH) throw noWebhook(id);
  return id;
}

/** The caller's subscription named by the path, or 404. */
export async function ownSubscription(request: ApiRequest, webhooks: WebhookRepository): Promise<Webhook> {
  const id = webhookIdOf(request);
  const webhook = await webhooks.get(id);
  if (webhook?.client_id !== callerOf(request)) throw noWebhook(id);
  return webhook;
}

export async function listWebhooksRequest(
  request: ApiRequest,
  webhooks: WebhookRepository,
): Promise<ApiResponse> {
  const clientId = callerOf(request);
  const own = (await webhooks.all()).filter((w) => w.client_id === clientId);
  return { body: { webhooks: own.map((w) => subscriptionView(w)) } };
}

export async function getWebhookRequest(
  request: ApiRequest,
  webhooks: WebhookRepository,
): Promise<ApiResponse> {
  return { body: subscriptionView(await ownSubscription(request, webhooks)) };
}

const attemptView = (attempt: DeliveryAttempt) => {
  const { webhook_id: _id, ...shown } = attempt;
  return shown;
};

export async function listDeliveriesRequest(
  request: ApiRequest,
  webhooks: WebhookRepository,
): Promise<ApiResponse> {
  // Read beside the subscription, and answered only once it is the caller's.
  const [attempts] = await Promise.all([
    webhooks.attempts(webhookIdOf(request), LIMITS.webhookDeliveriesListed),
    ownSubscription(request, webhooks),
  ]);
  return { body: { deliveries: attempts.map(attemptView) } };
}
