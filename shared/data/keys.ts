// Every key string of the table is built here and nowhere else (docs/data-model.md lists them).
import type { RecordGroup } from '../domain/groups';

export interface Key {
  pk: string;
  sk: string;
}

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

  seedMarker: { pk: 'META', sk: 'seed' } satisfies Key,
} as const;
