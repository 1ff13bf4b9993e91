// Every key string of the table is built here and nowhere else, on the partitions item-kinds.ts declares
// (docs/data-model.md lists them).
import type { RecordGroup } from '../domain/groups';
import { itemKinds as kinds } from './item-kinds';

export interface Key {
  pk: string;
  sk: string;
}

/** `<timestamp>#<id>`: sorts by time, ties broken by id. */
const timeOrdered = (at: string, id: string) => `${at}#${id}`;

/** A bound that sorts after every time-ordered key of that time: `> afterTime(t)` excludes t, `<=` includes it. */
export const afterTime = (at: string) => `${at}#~`;

export const keys = {
  /** All records of a group share one partition, sorted by id: a list is one Query in id order. */
  recordPartition: kinds.record.partition,
  record: (group: RecordGroup, id: string): Key => ({ pk: kinds.record.partition(group), sk: id }),

  /** One item per group holding its exact record count, changed in the same transaction as the records. */
  counterPartition: kinds.counter.partition,
  counter: (group: RecordGroup): Key => ({ pk: kinds.counter.partition, sk: group }),

  clientPartition: kinds.client.partition,
  client: (clientId: string): Key => ({ pk: kinds.client.partition, sk: clientId }),

  /** Signing keys sort by creation time, so the newest is the first of a descending Query. */
  privateKeyPartition: kinds.privateKey.partition,
  privateKey: (createdAt: string, kid: string): Key => ({
    pk: kinds.privateKey.partition,
    sk: `${createdAt}#${kid}`,
  }),
  publicKeyPartition: kinds.publicKey.partition,
  publicKey: (createdAt: string, kid: string): Key => ({
    pk: kinds.publicKey.partition,
    sk: `${createdAt}#${kid}`,
  }),

  /** Claims a record's processnumber within its group; holds the id of the record that has it. */
  processnumberPartition: kinds.processnumber.partition,
  processnumber: (group: RecordGroup, value: string): Key => ({
    pk: kinds.processnumber.partition(group),
    sk: value,
  }),

  /** Deletions in time order, for `GET /api/<group>/deleted`; they expire with the retention. */
  deletionPartition: kinds.deletion.partition,
  deletion: (group: RecordGroup, deletedAt: string, id: string): Key => ({
    pk: kinds.deletion.partition(group),
    sk: timeOrdered(deletedAt, id),
  }),
  /** A deleted record's id, so that reading it answers 410 while the deletion is retained. */
  gonePartition: kinds.gone.partition,
  gone: (group: RecordGroup, id: string): Key => ({ pk: kinds.gone.partition(group), sk: id }),

  /**
   * The first response to a POST with an Idempotency-Key, by the caller (the token's subject) and the
   * key; it expires after 24 hours.
   */
  idempotencyPartition: kinds.idempotency.partition,
  idempotency: (group: RecordGroup, caller: string, key: string): Key => ({
    pk: kinds.idempotency.partition(group),
    sk: `${caller}#${key}`,
  }),

  /** Keys of the `changes` index: a group's records in modification order, for delta sync. */
  changePartition: kinds.record.changesPartition,
  changeSort: (updatedAt: string, id: string) => timeOrdered(updatedAt, id),

  /** Sign-in accounts of the tenant's people, by user id. */
  userPartition: kinds.user.partition,
  user: (userId: string): Key => ({ pk: kinds.user.partition, sk: userId }),
  /** Claims a username or e-mail address (lower-cased) for one account; holds that account's user id. */
  loginPartition: kinds.login.partition,
  login: (name: string): Key => ({ pk: kinds.login.partition, sk: name }),

  /** A checked authorization request awaiting its sign-in form, by a random id; expires in minutes. */
  authorizationRequestPartition: kinds.authorizationRequest.partition,
  authorizationRequest: (requestId: string): Key => ({
    pk: kinds.authorizationRequest.partition,
    sk: requestId,
  }),
  /** Authorization codes, by the SHA-256 of the code: a stolen table holds no usable code. */
  authorizationCodePartition: kinds.authorizationCode.partition,
  authorizationCode: (codeHash: string): Key => ({ pk: kinds.authorizationCode.partition, sk: codeHash }),
  /** Refresh tokens, by the SHA-256 of the token, each pointing at its family. */
  refreshTokenPartition: kinds.refreshToken.partition,
  refreshToken: (tokenHash: string): Key => ({ pk: kinds.refreshToken.partition, sk: tokenHash }),
  /** A refresh-token family: every token rotated from one sign-in, revoked together. */
  refreshFamilyPartition: kinds.refreshFamily.partition,
  refreshFamily: (familyId: string): Key => ({ pk: kinds.refreshFamily.partition, sk: familyId }),
  /**
   * Revoked sign-ins (by sid) and accounts signed out everywhere (by user id), in the order they were
   * revoked: verifiers read those recent enough to matter, an access token's lifetime back, with one
   * Query, and refuse the tokens they name on every route.
   */
  revocationPartition: kinds.revocation.partition,
  revokedSignIn: (revokedAt: string, signIn: string): Key => ({
    pk: kinds.revocation.partition,
    sk: timeOrdered(revokedAt, `sign-in#${signIn}`),
  }),
  revokedAccount: (signedOutAt: string, userId: string): Key => ({
    pk: kinds.revocation.partition,
    sk: timeOrdered(signedOutAt, `account#${userId}`),
  }),
  /** Sign-on sessions, by the SHA-256 of the session cookie: a stolen table holds no usable cookie. */
  sessionPartition: kinds.session.partition,
  session: (cookieHash: string): Key => ({ pk: kinds.session.partition, sk: cookieHash }),
  /** Failed sign-ins per account name and per client address, for slowing down and locking out. */
  signInThrottlePartition: kinds.signInThrottle.partition,
  signInThrottle: (subject: string): Key => ({ pk: kinds.signInThrottle.partition, sk: subject }),

  seedMarker: { pk: kinds.meta.partition, sk: 'seed' } satisfies Key,
} as const;
