// The webhooks API's changes as its handlers serve them (docs/events.md): a client's subscriptions made,
// deleted, enabled again, their secret rotated, and kept events replayed; each body checked against its
// schema first.
import { randomBytes } from 'node:crypto';
import { WEBHOOK_EVENT_RETENTION_DAYS } from '../data/item-kinds';
import { signingSecrets, type Webhook, type WebhookRepository } from '../data/webhook-repository';
import { InvalidInputError, StateConflictError } from '../domain/errors';
import { parseInstant } from '../domain/instants';
import { LIMITS } from '../domain/limits';
import type { ApiRequest, ApiResponse } from '../exchange';
import { validateBody } from '../http/validate';
import { WebhookReplayRequest, WebhookRequest } from '../schemas/webhooks';
import { refusedDestination } from './destination';
import { newSigningSecret } from './signature';
import { callerOf, noWebhook, ownSubscription, subscriptionView, webhookAddress } from './webhook-reads';

/** How long a rotated-out secret keeps signing beside the new one. */
const ROTATED_SECRET_SECONDS = 86_400;
const newId = (prefix: string) => `${prefix}_${randomBytes(16).toString('base64url')}`;

export async function createWebhookRequest(
  request: ApiRequest,
  webhooks: WebhookRepository,
): Promise<ApiResponse> {
  const input = validateBody(WebhookRequest, request.body, Object.keys(WebhookRequest.shape));
  const refused = await refusedDestination(input.url, { loopback: request.config.webhookLoopback });
  if (refused !== undefined) {
    throw new InvalidInputError(`The webhook url ${refused}.`, [
      { name: 'url', in: 'body', reason: refused },
    ]);
  }
  const clientId = callerOf(request);
  const held = (await webhooks.all()).filter((w) => w.client_id === clientId).length;
  if (held >= LIMITS.webhooksPerClient) {
    throw new StateConflictError(
      `A client may hold ${LIMITS.webhooksPerClient} webhook subscriptions; delete one first.`,
    );
  }
  const now = new Date().toISOString();
  const secret = newSigningSecret();
  const webhook: Webhook = {
    webhook_id: newId('wh'),
    client_id: clientId,
    url: input.url,
    event_types: [...new Set(input.event_types)],
    status: 'active',
    secrets: [{ secret, created_at: now }],
    created_at: now,
    updated_at: now,
  };
  await webhooks.create(webhook);
  return {
    status: 201,
    headers: { location: webhookAddress(request, webhook.webhook_id) },
    body: { webhook: subscriptionView(webhook), secret },
  };
}

export async function deleteWebhookRequest(
  request: ApiRequest,
  webhooks: WebhookRepository,
): Promise<ApiResponse> {
  const webhook = await ownSubscription(request, webhooks);
  if (!(await webhooks.delete(webhook.webhook_id, webhook.client_id))) {
    throw noWebhook(webhook.webhook_id);
  }
  return { status: 204 };
}

/** Enables a subscription again (one its failures disabled): deliveries resume with the next events. */
export async function enableWebhookRequest(
  request: ApiRequest,
  webhooks: WebhookRepository,
): Promise<ApiResponse> {
  const webhook = await ownSubscription(request, webhooks);
  const { disabled_at: _at, disabled_reason: _reason, ...rest } = webhook;
  const enabled: Webhook = { ...rest, status: 'active', updated_at: new Date().toISOString() };
  if (webhook.status !== 'active') await webhooks.replace(webhook, enabled);
  return { body: subscriptionView(webhook.status === 'active' ? webhook : enabled) };
}

/**
 * A new signing secret: the one it replaces keeps signing beside it for a day, so a receiver that
 * verifies with either passes while it changes over; older ones stop now.
 */
export async function rotateWebhookSecretRequest(
  request: ApiRequest,
  webhooks: WebhookRepository,
): Promise<ApiResponse> {
  const webhook = await ownSubscription(request, webhooks);
  const now = new Date();
  const live = new Set(signingSecrets(webhook, now));
  const current = webhook.secrets.find((s) => s.expires_at === undefined);
  const expiresAt = new Date(now.getTime() + ROTATED_SECRET_SECONDS * 1000).toISOString();
  const secret = newSigningSecret();
  const next: Webhook = {
    ...webhook,
    secrets: [
      ...(current ? [{ ...current, expires_at: expiresAt }] : []),
      { secret, created_at: now.toISOString() },
    ].filter((s) => s.secret === secret || live.has(s.secret)),
    updated_at: now.toISOString(),
  };
  await webhooks.replace(webhook, next);
  return { body: { secret, previous_secret_expires_at: expiresAt } };
}

/** Queues again every kept event since `since` that the subscription wants, in order per record. */
export async function replayRequest(request: ApiRequest, webhooks: WebhookRepository): Promise<ApiResponse> {
  const webhook = await ownSubscription(request, webhooks);
  const input = validateBody(WebhookReplayRequest, request.body, Object.keys(WebhookReplayRequest.shape));
  const since = parseInstant(input.since);
  const now = new Date();
  const keptFrom = new Date(now.getTime() - WEBHOOK_EVENT_RETENTION_DAYS * 86_400_000).toISOString();
  // The schema takes a date-time with an offset; one outside the years 0000 to 9999 in UTC is no instant here.
  if (since === undefined || since < keptFrom || since > now.toISOString()) {
    const reason = `must be within the last ${WEBHOOK_EVENT_RETENTION_DAYS} days, when events are kept`;
    throw new InvalidInputError(`since ${reason}.`, [{ name: 'since', in: 'body', reason }]);
  }
  if (webhook.status !== 'active') {
    throw new StateConflictError('The webhook is disabled: enable it first, then replay.');
  }
  const replay = {
    replay_id: newId('rp'),
    webhook_id: webhook.webhook_id,
    since,
    until: now.toISOString(),
    requested_at: now.toISOString(),
  };
  await webhooks.startReplay(replay);
  const { requested_at: _requested, ...shown } = replay;
  return { status: 202, body: shown };
}
