// Delivers one queued event to one subscription (docs/events.md), the same code deployed (the SQS-fed
// function) and in the local run: the event's record read as the subscription's client would read it
// now (its scopes, its profile's fields, masking, its schools), signed, sent, and the attempt kept. An
// event about a record the client may not read, or no longer exists, is not sent at all; a failed
// attempt is tried again after a backoff, and one that fails its last attempt disables the subscription.
import type { AccessToken } from '../auth/access-token';
import { canRead, readScope as readScopeOf } from '../auth/reach';
import { resolveProfile } from '../clients/profiles';
import type { ClientRepository, OAuthClient } from '../data/client-repository';
import type { RecordRepository } from '../data/record-repository';
import { signingSecrets, type Webhook, type WebhookRepository } from '../data/webhook-repository';
import { idFields, type RecordGroup, readScope } from '../domain/groups';
import { readerView } from '../records/record-view';
import { schoolDeletions } from '../records/school-deletions';
import { retryDelayMs, WEBHOOK_ATTEMPTS } from './backoff';
import type { ChangeEvent } from './change-events';
import { groupOf } from './event-types';
import type { Sender } from './http-sender';
import type { QueuedDelivery } from './queue';
import { signedHeaders } from './signature';

/** What becomes of a queued delivery after an attempt: done with (sent, or nothing to send), tried again later, or dead-lettered. */
export type Outcome = { kind: 'done' } | { kind: 'retry'; delayMs: number } | { kind: 'dead' };

export interface DeliveryParts {
  webhooks: WebhookRepository;
  clients: ClientRepository;
  records: RecordRepository;
  send: Sender;
  tenantId: string;
  /** The first retry's mean wait (WEBHOOK_RETRY_BASE_MS). */
  retryBaseMs: number;
}

const done: Outcome = { kind: 'done' };

/**
 * How long a delivering process keeps using an active subscription and its client as read, instead of
 * reading both for every event: a subscription deleted or disabled, or a client disabled, gets nothing
 * more within this. One read as disabled is never kept, so enabling one takes effect at once.
 */
export const ACTIVE_REFRESH_MS = 5_000;

/** Values read for a while, only while `keep` says so of them. */
class ShortCache<T> {
  private readonly held = new Map<string, { value: T; readAt: number }>();

  constructor(
    private readonly read: (id: string) => Promise<T | undefined>,
    private readonly keep: (value: T) => boolean,
  ) {}

  async get(id: string): Promise<T | undefined> {
    const held = this.held.get(id);
    if (held && Date.now() - held.readAt < ACTIVE_REFRESH_MS) return held.value;
    const value = await this.read(id);
    if (value !== undefined && this.keep(value)) this.held.set(id, { value, readAt: Date.now() });
    else this.held.delete(id);
    return value;
  }
}

export class WebhookDelivery {
  private readonly subscriptions: ShortCache<Webhook>;
  private readonly clients: ShortCache<OAuthClient>;

  constructor(private readonly parts: DeliveryParts) {
    this.subscriptions = new ShortCache(
      (id) => parts.webhooks.get(id),
      (w) => w.status === 'active',
    );
    this.clients = new ShortCache(
      (id) => parts.clients.get(id),
      (c) => c.status === 'active',
    );
  }

  /** Makes attempt number `attempt` (1 for the first) of a queued delivery. */
  async deliver({ webhook_id, event }: QueuedDelivery, attempt: number): Promise<Outcome> {
    const { webhooks, send } = this.parts;
    const webhook = await this.subscriptions.get(webhook_id);
    if (webhook?.status !== 'active') return done;
    const data = await this.dataFor(webhook.client_id, event);
    if (data === undefined) return done;
    const body = JSON.stringify({ type: event.type, timestamp: event.at, data });
    const sentAt = new Date();
    const result = await send(
      webhook.url,
      signedHeaders(signingSecrets(webhook, sentAt), event.event_id, sentAt, body),
      body,
    );
    const delivered = result.status !== undefined && result.status >= 200 && result.status < 300;
    const last = attempt >= WEBHOOK_ATTEMPTS;
    const delayMs = delivered || last ? undefined : retryDelayMs(attempt, this.parts.retryBaseMs);
    await webhooks.recordAttempt({
      webhook_id,
      event_id: event.event_id,
      event_type: event.type,
      record_id: event.record_id,
      attempt,
      outcome: delivered ? 'delivered' : last ? 'dead-lettered' : 'failed',
      ...(result.status === undefined ? {} : { response_status: result.status }),
      ...(result.error === undefined ? {} : { error: result.error.slice(0, 300) }),
      latency_ms: result.latencyMs,
      attempted_at: sentAt.toISOString(),
      ...(delayMs === undefined
        ? {}
        : { next_attempt_at: new Date(sentAt.getTime() + delayMs).toISOString() }),
    });
    if (delivered) return done;
    if (delayMs !== undefined) return { kind: 'retry', delayMs };
    await webhooks.disable(
      webhook_id,
      `Event ${event.event_id} failed ${WEBHOOK_ATTEMPTS} attempts; the last: ${result.status ?? result.error}.`,
      new Date().toISOString(),
    );
    return { kind: 'dead' };
  }

  /** The event's data as the client reads it now, or undefined when it may not read it (or it is gone). */
  private async dataFor(clientId: string, event: ChangeEvent): Promise<object | undefined> {
    const { records, tenantId } = this.parts;
    const client = await this.clients.get(clientId);
    const group = groupOf(event.type);
    if (client?.status !== 'active' || !client.scopes.includes(readScope(group))) return undefined;
    const profile = resolveProfile(client.profile);
    const auth: AccessToken = {
      sub: clientId,
      clientId,
      tenantId,
      scopes: client.scopes,
      issuedAt: 0,
      expiresAt: 0,
      jti: event.event_id,
      ...(profile ? { profile } : {}),
      ...(client.schools ? { schools: client.schools } : {}),
    };
    if (event.type.endsWith('.deleted')) {
      if (!(await deletionReadable(auth, group, event, records))) return undefined;
      return { [idFields[group]]: event.record_id, deleted_at: event.at };
    }
    if (!(await canRead(auth, group, event.record_id, records))) return undefined;
    const stored = await records.get(group, event.record_id);
    return stored && readerView(auth, group)(stored.record);
  }
}

/**
 * Whether the client's deletions feed tells this deletion: always for a client of the whole tenant; for
 * one registered with schools, when those schools held the record as it was deleted (school-deletions.ts).
 */
async function deletionReadable(
  auth: AccessToken,
  group: RecordGroup,
  event: ChangeEvent,
  records: RecordRepository,
): Promise<boolean> {
  const scope = await readScopeOf(auth, group, records);
  if (scope.all) return true;
  if (!scope.schools) return false;
  const since = new Date(Date.parse(event.at) - 1).toISOString();
  const told = await schoolDeletions(group, scope.schools, records, {
    since,
    until: event.at,
    after: undefined,
    itemsPerPage: 1000,
  });
  return told.items.some((item) => item.value.id === event.record_id);
}
