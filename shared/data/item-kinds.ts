// Every kind of item the table holds, declared once: its partition and sort key, who it belongs to,
// when it expires and how erasing a person treats it. The key builders (keys.ts), the time to live a
// Put writes (items.ts), the routes' IAM partitions, `people erase` and the data-model doc's check all
// read these declarations, so a new kind is one entry here; leaving out its owner, or a person's item's
// erasure, does not compile.
import { LONGEST_ACCESS_TOKEN_SECONDS } from '../config';
import type { RecordGroup } from '../domain/groups';
import type { ListingName } from './listings';

/** How long change events are kept for a replay (docs/events.md). */
export const WEBHOOK_EVENT_RETENTION_DAYS = 30;

/**
 * How `people erase` ends a person's items of a kind (infra/cli/admin/people.ts has one step per rule):
 * - `account`: the account item itself, deleted last;
 * - `login-names`: the claims of the account's username and e-mail address, deleted;
 * - `by-user-id`: every item of the partition whose `user_id` is the account's, deleted;
 * - `revoke-by-user-id`: every item whose `user_id` is the account's, overwritten as revoked with
 *   nothing of the person left on it (a sign-in's family: its access tokens must stay refused);
 * - `account-counter`: the account's own sign-in counter, deleted (those of names hold only a hash);
 * - `expires`: left to its time to live, holding nothing that names the person once the account is gone.
 */
export type PersonErasure =
  | 'account'
  | 'login-names'
  | 'by-user-id'
  | 'revoke-by-user-id'
  | 'account-counter'
  | 'expires';

/**
 * When DynamoDB may remove an item: `after` an ISO time attribute of the item (plus `plusSeconds`),
 * which every Put of it derives the `ttl` from, or a time its writer works out (`set by the writer`).
 */
export type Expiry = { after: string; plusSeconds?: number } | 'set by the writer';

/**
 * A kind written faster than one partition takes (DynamoDB serves 1,000 writes a second to a partition
 * key): its items are spread over `shards` partitions, `<name>#<shard>`, by what its writer picks.
 */
export interface ShardedPartition {
  name: string;
  shards: number;
}

/** A partition: one for the kind, one per record group, or one per shard. */
export type Partition = string | ((group: RecordGroup) => string) | ShardedPartition;

/** The partition of one shard of a sharded kind. */
export const shardPartition = ({ name }: ShardedPartition, shard: number) => `${name}#${shard}`;

/** Every partition of a sharded kind, shard 0 first. */
export const shardPartitions = (partition: ShardedPartition) =>
  Array.from({ length: partition.shards }, (_, shard) => shardPartition(partition, shard));

interface KindBase {
  partition: Partition;
  /** The item's sort key from what identifies it within its partition. */
  sortKey: (...identity: never[]) => string;
  expires?: Expiry;
  /** Its partition in the `changes` index, for a kind the index holds. */
  changesPartition?: Partition;
  /** Its partition in the `listings` index, for a kind the index holds (listings.ts). */
  listingPartition?: (listing: ListingName) => string;
}

/**
 * A kind that belongs to a person's account, in a partition of its own: `people erase` must know what
 * to do with it.
 */
export interface PersonKind extends KindBase {
  partition: string;
  owner: 'person';
  erasure: PersonErasure;
}

/** A kind that belongs to an OAuth client, or to the tenant (its records, counters and keys). */
interface SharedKind extends KindBase {
  owner: 'client' | 'tenant';
}

export type ItemKind = PersonKind | SharedKind;

const kind = <const D extends ItemKind>(declaration: D) => declaration;

/** `<timestamp>#<id>`: sorts by time, ties broken by id. */
export const timeOrdered = (at: string, id: string) => `${at}#${id}`;

export const itemKinds = {
  /** All records of a group share one partition, sorted by id: a list is one Query in id order. */
  record: kind({
    partition: (group) => `REC#${group}`,
    sortKey: (id: string) => id,
    owner: 'tenant',
    changesPartition: (group) => `CHG#${group}`,
    listingPartition: (listing: ListingName) => `LIST#${listing}`,
  }),
  /**
   * A group's exact record count, held in shards each changed in the same transaction as the records it
   * counts, so that parallel writers (a bulk import) do not queue on one item; the count is their sum.
   * A table from before the shards holds the whole count in the item without a shard.
   */
  counter: kind({
    partition: 'COUNTER',
    sortKey: (group: RecordGroup, shard?: number) => (shard === undefined ? group : `${group}#${shard}`),
    owner: 'tenant',
  }),
  /**
   * A record naming another through a `listed` reference (groups.ts), filed under the record it names:
   * a course's classes and a term's, each in id order, so that those of one are a Query of a key range.
   * It holds its keys only.
   */
  referrer: kind({
    partition: (group) => `REFD#${group}`,
    sortKey: (field: string, namedId: string, id: string) => `${field}#${namedId}#${id}`,
    owner: 'tenant',
  }),
  /** Claims a record's processnumber within its group; holds the id of the record that has it. */
  processnumber: kind({
    partition: (group) => `UNIQ#${group}#processnumber`,
    sortKey: (value: string) => value,
    owner: 'tenant',
  }),
  /**
   * Claims the values of a record's natural key (`naturalKey` in groups.ts, joined by `#`) within its
   * group; holds the id of the record that has them.
   */
  naturalKey: kind({
    partition: (group) => `UNIQ#${group}#natural-key`,
    sortKey: (value: string) => value,
    owner: 'tenant',
  }),
  /**
   * The first response to a POST with an Idempotency-Key, by the caller (the token's subject) and the
   * key; it expires after 24 hours.
   */
  idempotency: kind({
    partition: (group) => `IDEM#${group}`,
    sortKey: (caller: string, key: string) => `${caller}#${key}`,
    owner: 'tenant',
    expires: 'set by the writer',
  }),
  /** Deletions in time order, for `GET /api/<group>/deleted`; they expire with the retention. */
  deletion: kind({
    partition: (group) => `DEL#${group}`,
    sortKey: (deletedAt: string, id: string) => timeOrdered(deletedAt, id),
    owner: 'tenant',
    expires: 'set by the writer',
  }),
  /** A deleted record's id, so that reading it answers 410 while the deletion is retained. */
  gone: kind({
    partition: (group) => `GONE#${group}`,
    sortKey: (id: string) => id,
    owner: 'tenant',
    expires: 'set by the writer',
  }),
  client: kind({ partition: 'CLIENT', sortKey: (clientId: string) => clientId, owner: 'client' }),
  /**
   * What every route that takes a token keeps of a client (status, when disabled, rate limit, profile), written with
   * the client: apart from it, so that those functions may read it and never a client's secret hash.
   */
  clientPolicy: kind({
    partition: 'CLIENT_POLICY',
    sortKey: (clientId: string) => clientId,
    owner: 'client',
  }),
  /** A client's credentials, by client and a random secret id: only the secret's scrypt hash is kept. */
  clientSecret: kind({
    partition: 'CLIENT_SECRET',
    sortKey: (clientId: string, secretId: string) => `${clientId}#${secretId}`,
    owner: 'client',
  }),
  /**
   * The requests a caller (a client, or a person through a client) was granted in one minute, counted by
   * every process of the tenant at once; it expires soon after its minute.
   */
  rateWindow: kind({
    partition: 'RATE',
    sortKey: (caller: string, minute: string) => `${caller}#${minute}`,
    owner: 'client',
    expires: 'set by the writer',
  }),
  /** A client's requests of one UTC day, by route group, and its refusals by rate limit; kept 31 days. */
  clientUsage: kind({
    partition: 'USAGE',
    sortKey: (clientId: string, day: string) => `${clientId}#${day}`,
    owner: 'client',
    expires: 'set by the writer',
  }),
  /**
   * A client's webhook subscription (docs/events.md): where its events go, which types, and the secrets
   * that sign them (a rotated one keeps signing until its `expires_at`).
   */
  webhook: kind({ partition: 'WEBHOOK', sortKey: (webhookId: string) => webhookId, owner: 'client' }),
  /**
   * A change event as the table's stream told it (a record created, replaced or deleted), kept for replay
   * for WEBHOOK_EVENT_RETENTION_DAYS: in time order within a shard, and every event of a record in the
   * shard its id picks (shared/events/change-events.ts), so a bulk import's events share no partition.
   */
  webhookEvent: kind({
    partition: { name: 'WEBHOOK_EVENT', shards: 16 },
    sortKey: timeOrdered,
    owner: 'tenant',
    expires: { after: 'at', plusSeconds: WEBHOOK_EVENT_RETENTION_DAYS * 86_400 },
  }),
  /** One attempt to deliver an event to a subscription, newest last; kept as long as the events. */
  webhookDelivery: kind({
    partition: 'WEBHOOK_DELIVERY',
    sortKey: (webhookId: string, attemptedAt: string, eventId: string) =>
      `${webhookId}#${timeOrdered(attemptedAt, eventId)}`,
    owner: 'client',
    expires: { after: 'attempted_at', plusSeconds: WEBHOOK_EVENT_RETENTION_DAYS * 86_400 },
  }),
  /**
   * A replay a client asked for: the stream function sends its events a page at a time, moving `after` on
   * with each page (each move is the stream record of the next), and deletes it when done.
   */
  webhookReplay: kind({
    partition: 'WEBHOOK_REPLAY',
    sortKey: (replayId: string) => replayId,
    owner: 'client',
    expires: { after: 'requested_at', plusSeconds: 86_400 },
  }),
  /** Signing keys sort by creation time, so the newest is the first of a descending Query. */
  privateKey: kind({ partition: 'SIGNING_KEY', sortKey: timeOrdered, owner: 'tenant' }),
  publicKey: kind({ partition: 'PUBLIC_KEY', sortKey: timeOrdered, owner: 'tenant' }),
  /** Sign-in accounts of the tenant's people, by user id. */
  user: kind({ partition: 'USER', sortKey: (userId: string) => userId, owner: 'person', erasure: 'account' }),
  /** Claims a username or e-mail address (lower-cased) for one account; holds that account's user id. */
  login: kind({
    partition: 'LOGIN',
    sortKey: (name: string) => name,
    owner: 'person',
    erasure: 'login-names',
  }),
  /** A checked authorization request awaiting its sign-in form, by a random id; expires in minutes. */
  authorizationRequest: kind({
    partition: 'AUTHZ_REQUEST',
    sortKey: (requestId: string) => requestId,
    owner: 'person',
    // It lives minutes, and names an account only once its password was right.
    erasure: 'expires',
    expires: { after: 'expires_at' },
  }),
  /** Authorization codes, by the SHA-256 of the code: a stolen table holds no usable code. */
  authorizationCode: kind({
    partition: 'AUTHZ_CODE',
    sortKey: (codeHash: string) => codeHash,
    owner: 'person',
    erasure: 'by-user-id',
    // An hour past its expiry, so that a reuse is still recognised.
    expires: { after: 'expires_at', plusSeconds: 3600 },
  }),
  /** Refresh tokens, by the SHA-256 of the token, each pointing at its family. */
  refreshToken: kind({
    partition: 'REFRESH_TOKEN',
    sortKey: (tokenHash: string) => tokenHash,
    owner: 'person',
    erasure: 'by-user-id',
    expires: { after: 'expires_at' },
  }),
  /** A refresh-token family: every token rotated from one sign-in, revoked together. */
  refreshFamily: kind({
    partition: 'REFRESH_FAMILY',
    sortKey: (familyId: string) => familyId,
    owner: 'person',
    erasure: 'revoke-by-user-id',
    expires: { after: 'expires_at' },
  }),
  /**
   * Revoked sign-ins (by sid) and accounts signed out everywhere (by user id), in the order they were
   * revoked: verifiers read those recent enough to matter, an access token's lifetime back, with one
   * Query, and refuse the tokens they name on every route.
   */
  revocation: kind({
    partition: 'REVOKED',
    sortKey: (revokedAt: string, what: 'sign-in' | 'account', id: string) =>
      timeOrdered(revokedAt, `${what}#${id}`),
    owner: 'person',
    // Written by the erasure itself: a random id and a time, for a day.
    erasure: 'expires',
    // Past the longest an access token lives, so an item outlasts every token it refuses.
    expires: { after: 'revoked_at', plusSeconds: LONGEST_ACCESS_TOKEN_SECONDS },
  }),
  /** Sign-on sessions, by the SHA-256 of the session cookie: a stolen table holds no usable cookie. */
  session: kind({
    partition: 'SSO_SESSION',
    sortKey: (cookieHash: string) => cookieHash,
    owner: 'person',
    erasure: 'by-user-id',
    expires: { after: 'expires_at' },
  }),
  /** Failed sign-ins per account name and per client address, for slowing down and locking out. */
  signInThrottle: kind({
    partition: 'SIGN_IN_THROTTLE',
    sortKey: (subject: string) => subject,
    owner: 'person',
    erasure: 'account-counter',
    expires: 'set by the writer',
  }),
  /** Facts about the table itself: the local run's seed marker. */
  meta: kind({ partition: 'META', sortKey: (fact: 'seed') => fact, owner: 'tenant' }),
} as const;

export type ItemKindName = keyof typeof itemKinds;

/** Every kind, with its name. */
export const allItemKinds = Object.entries(itemKinds) as [ItemKindName, ItemKind][];

/** A kind's partition as the docs write it: `<group>` stands for a group's name, `<shard>` for a shard's number. */
export const partitionPattern = (partition: Partition) =>
  typeof partition === 'string'
    ? partition
    : typeof partition === 'function'
      ? partition('<group>' as RecordGroup)
      : `${partition.name}#<shard>`;
