// Every kind of item the table holds, declared once: its partition, who it belongs to, when it expires
// and how erasing a person treats it. The key strings (keys.ts), the time to live a Put writes
// (items.ts), `people erase` and the data-model doc's check all read these declarations, so a new kind
// is one entry here and its key in keys.ts; leaving out its owner, or a person's item's erasure, does
// not compile.
import type { RecordGroup } from '../domain/groups';

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

/** A partition: one for the kind, or one per record group. */
export type Partition = string | ((group: RecordGroup) => string);

interface KindBase {
  partition: Partition;
  expires?: Expiry;
  /** Its partition in the `changes` index, for a kind the index holds. */
  changesPartition?: Partition;
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

export const itemKinds = {
  record: kind({
    partition: (group) => `REC#${group}`,
    owner: 'tenant',
    changesPartition: (group) => `CHG#${group}`,
  }),
  counter: kind({ partition: 'COUNTER', owner: 'tenant' }),
  processnumber: kind({
    partition: (group) => `UNIQ#${group}#processnumber`,
    owner: 'tenant',
  }),
  idempotency: kind({
    partition: (group) => `IDEM#${group}`,
    owner: 'tenant',
    expires: 'set by the writer',
  }),
  deletion: kind({
    partition: (group) => `DEL#${group}`,
    owner: 'tenant',
    expires: 'set by the writer',
  }),
  gone: kind({
    partition: (group) => `GONE#${group}`,
    owner: 'tenant',
    expires: 'set by the writer',
  }),
  client: kind({ partition: 'CLIENT', owner: 'client' }),
  privateKey: kind({ partition: 'SIGNING_KEY', owner: 'tenant' }),
  publicKey: kind({ partition: 'PUBLIC_KEY', owner: 'tenant' }),
  user: kind({ partition: 'USER', owner: 'person', erasure: 'account' }),
  login: kind({
    partition: 'LOGIN',
    owner: 'person',
    erasure: 'login-names',
  }),
  authorizationRequest: kind({
    partition: 'AUTHZ_REQUEST',
    owner: 'person',
    // It lives minutes, and names an account only once its password was right.
    erasure: 'expires',
    expires: { after: 'expires_at' },
  }),
  authorizationCode: kind({
    partition: 'AUTHZ_CODE',
    owner: 'person',
    erasure: 'by-user-id',
    // An hour past its expiry, so that a reuse is still recognised.
    expires: { after: 'expires_at', plusSeconds: 3600 },
  }),
  refreshToken: kind({
    partition: 'REFRESH_TOKEN',
    owner: 'person',
    erasure: 'by-user-id',
    expires: { after: 'expires_at' },
  }),
  refreshFamily: kind({
    partition: 'REFRESH_FAMILY',
    owner: 'person',
    erasure: 'revoke-by-user-id',
    expires: { after: 'expires_at' },
  }),
  revocation: kind({
    partition: 'REVOKED',
    owner: 'person',
    // Written by the erasure itself: a random id and a time, for a day.
    erasure: 'expires',
    expires: 'set by the writer',
  }),
  session: kind({
    partition: 'SSO_SESSION',
    owner: 'person',
    erasure: 'by-user-id',
    expires: { after: 'expires_at' },
  }),
  signInThrottle: kind({
    partition: 'SIGN_IN_THROTTLE',
    owner: 'person',
    erasure: 'account-counter',
    expires: 'set by the writer',
  }),
  meta: kind({ partition: 'META', owner: 'tenant' }),
} as const;

export type ItemKindName = keyof typeof itemKinds;

/** Every kind, with its name. */
export const allItemKinds = Object.entries(itemKinds) as [ItemKindName, ItemKind][];

/** A kind's partition as the docs write it: `<group>` stands for a group's name. */
export const partitionPattern = (partition: Partition) =>
  typeof partition === 'string' ? partition : partition('<group>' as RecordGroup);
