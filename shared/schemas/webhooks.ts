// What the webhooks API takes and gives (docs/events.md): a subscription as its client reads it (never a
// secret, which is shown once, when made or rotated), its delivery attempts, and a replay. Written with
// zod/mini: the webhook handlers parse bodies with these.
import * as z from 'zod/mini';
import { eventTypePatterns } from '../events/event-types';

export const WebhookRequest = z.strictObject({
  url: z.string().check(z.minLength(1, 'must not be empty'), z.maxLength(2_000, 'at most 2000 characters')),
  event_types: z
    .array(
      z.enum(eventTypePatterns, 'must be <group>.created, <group>.updated, <group>.deleted or <group>.*'),
    )
    .check(z.minLength(1, 'must name at least one event type'), z.maxLength(100, 'at most 100 event types')),
});
export type WebhookRequest = z.infer<typeof WebhookRequest>;

export const WebhookSubscription = z.strictObject({
  webhook_id: z.string(),
  url: z.string(),
  event_types: z.array(z.enum(eventTypePatterns)),
  status: z.enum(['active', 'disabled']),
  created_at: z.iso.datetime(),
  updated_at: z.iso.datetime(),
  disabled_at: z.optional(z.iso.datetime()),
  disabled_reason: z.optional(z.string()),
  /** When the secret rotated out last still signs until. */
  previous_secret_expires_at: z.optional(z.iso.datetime()),
});
export type WebhookSubscription = z.infer<typeof WebhookSubscription>;

export const WebhookCreated = z.strictObject({ webhook: WebhookSubscription, secret: z.string() });
export const WebhooksList = z.strictObject({ webhooks: z.array(WebhookSubscription) });
export const WebhookSecretRotated = z.strictObject({
  secret: z.string(),
  previous_secret_expires_at: z.iso.datetime(),
});

export const WebhookDelivery = z.strictObject({
  event_id: z.string(),
  event_type: z.string(),
  record_id: z.string(),
  attempt: z.int(),
  outcome: z.enum(['delivered', 'failed', 'dead-lettered']),
  response_status: z.optional(z.int()),
  latency_ms: z.int(),
  attempted_at: z.iso.datetime(),
  next_attempt_at: z.optional(z.iso.datetime()),
  error: z.optional(z.string()),
});
export const WebhookDeliveries = z.strictObject({ deliveries: z.array(WebhookDelivery) });

export const WebhookReplayRequest = z.strictObject({
  since: z.iso.datetime({ offset: true, error: 'must be an ISO 8601 time with a zone' }),
});
export type WebhookReplayRequest = z.infer<typeof WebhookReplayRequest>;

export const WebhookReplay = z.strictObject({
  replay_id: z.string(),
  webhook_id: z.string(),
  since: z.iso.datetime(),
  until: z.iso.datetime(),
});
