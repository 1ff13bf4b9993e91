// Every key string of the table is built here and nowhere else (docs/data-model.md lists them).
import type { RecordGroup } from '../domain/groups';

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
  recordPartition: (group: RecordGroup) => `REC#${group}`,
  record: (group: RecordGroup, id: string): Key => ({ pk: `REC#${group}`, sk: id }),

  /** One item per group holding its exact record count, changed in the same transaction as the records. */
  counterPartition: 'COUNTER',
  counter: (group: RecordGroup): Key => ({ pk: 'COUNTER', sk: group }),

  clientPartition: 'CLIENT',
  client: (clientId: string): Key => ({ pk: 'CLIENT', sk: clientId }),

  /** Signing keys sort by creation time, so the newest is the first of a descending Query. */
  privateKeyPartition: 'SIGNING_KEY',
  privateKey: (createdAt: string, kid: string): Key => ({ pk: 'SIGNING_KEY', sk: `${createdAt}#${kid}` }),
  publicKeyPartition: 'PUBLIC_KEY',
  publicKey: (createdAt: string, kid: string): Key => ({ pk: 'PUBLIC_KEY', sk: `${createdAt}#${kid}` }),

  /** Claims a record's processnumber within its group; holds the id of the record that has it. */
  processnumberPartition: (group: RecordGroup) => `UNIQ#${group}#processnumber`,
  processnumber: (group: RecordGroup, value: string): Key => ({
    pk: `UNIQ#${group}#processnumber`,
    sk: value,
  }),

  /** Deletions in time order, for `GET /api/<group>/deleted`; they expire with the retention. */
  deletionPartition: (group: RecordGroup) => `DEL#${group}`,
  deletion: (group: RecordGroup, deletedAt: string, id: string): Key => ({
    pk: `DEL#${group}`,
    sk: timeOrdered(deletedAt, id),
  }),
  /** A deleted record's id, so that reading it answers 410 while the deletion is retained. */
  gonePartition: (group: RecordGroup) => `GONE#${group}`,
  gone: (group: RecordGroup, id: string): Key => ({ pk: `GONE#${group}`, sk: id }),

  /**
   * The first response to a POST with an Idempotency-Key, by the caller (the token's subject) and the
   * key; it expires after 24 hours.
   */
  idempotencyPartition: (group: RecordGroup) => `IDEM#${group}`,
  idempotency: (group: RecordGroup, caller: string, key: string): Key => ({
    pk: `IDEM#${group}`,
    sk: `${caller}#${key}`,
  }),

  /** Keys of the `changes` index: a group's records in modification order, for delta sync. */
  changePartition: (group: RecordGroup) => `CHG#${group}`,
  changeSort: (updatedAt: string, id: string) => timeOrdered(updatedAt, id),

  /** Sign-in accounts of the tenant's people, by user id. */
  userPartition: 'USER',
  user: (userId: string): Key => ({ pk: 'USER', sk: userId }),
  /** Claims a username or e-mail address (lower-cased) for one account; holds that account's user id. */
  loginPartition: 'LOGIN',
  login: (name: string): Key => ({ pk: 'LOGIN', sk: name }),

  /** A checked authorization request awaiting its sign-in form, by a random id; expires in minutes. */
  authorizationRequestPartition: 'AUTHZ_REQUEST',
  authorizationRequest: (requestId: string): Key => ({ pk: 'AUTHZ_REQUEST', sk: requestId }),
  /** Authorization codes, by the SHA-256 of the code: a stolen table holds no usable code. */
  authorizationCodePartition: 'AUTHZ_CODE',
  authorizationCode: (codeHash: string): Key => ({ pk: 'AUTHZ_CODE', sk: codeHash }),
  /** Refresh tokens, by the SHA-256 of the token, each pointing at its family. */
  refreshTokenPartition: 'REFRESH_TOKEN',
  refreshToken: (tokenHash: string): Key => ({ pk: 'REFRESH_TOKEN', sk: tokenHash }),
  /** A refresh-token family: every token rotated from one sign-in, revoked together. */
  refreshFamilyPartition: 'REFRESH_FAMILY',
  refreshFamily: (familyId: string): Key => ({ pk: 'REFRESH_FAMILY', sk: familyId }),
  /**
   * Revoked sign-ins (by sid) and accounts signed out everywhere (by user id), in the order they were
   * revoked: verifiers read those recent enough to matter, an access token's lifetime back, with one
   * Query, and refuse the tokens they name on every route.
   */
  revocationPartition: 'REVOKED',
  revokedSignIn: (revokedAt: string, signIn: string): Key => ({
    pk: 'REVOKED',
    sk: timeOrdered(revokedAt, `sign-in#${signIn}`),
  }),
  revokedAccount: (signedOutAt: string, userId: string): Key => ({
    pk: 'REVOKED',
    sk: timeOrdered(signedOutAt, `account#${userId}`),
  }),
  /** Sign-on sessions, by the SHA-256 of the session cookie: a stolen table holds no usable cookie. */
  sessionPartition: 'SSO_SESSION',
  session: (cookieHash: string): Key => ({ pk: 'SSO_SESSION', sk: cookieHash }),
  /** Failed sign-ins per account name and per client address, for slowing down and locking out. */
  signInThrottlePartition: 'SIGN_IN_THROTTLE',
  signInThrottle: (subject: string): Key => ({ pk: 'SIGN_IN_THROTTLE', sk: subject }),

  seedMarker: { pk: 'META', sk: 'seed' } satisfies Key,
} as const;
