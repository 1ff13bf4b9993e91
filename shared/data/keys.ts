// Every key of the table is built here, from the partition and sort key item-kinds.ts declares for its
// kind (docs/data-model.md lists them): `keys.<kind>(…)` is an item's key (after its group or shard, for
// a kind with a partition per group or per shard) and `keys.<kind>Partition` its partition, for every
// kind without a line of its own.
import type { RecordGroup } from '../domain/groups';
import {
  allItemKinds,
  type ItemKindName,
  itemKinds,
  type ShardedPartition,
  shardPartition,
  timeOrdered,
} from './item-kinds';

export interface Key {
  pk: string;
  sk: string;
}

type Kinds = typeof itemKinds;

/** A kind's key from its identity, after its record group where it has a partition per group. */
type KeyBuilder<K> = K extends {
  partition: (group: RecordGroup) => string;
  sortKey: (...identity: infer A) => string;
}
  ? (group: RecordGroup, ...identity: A) => Key
  : K extends { partition: ShardedPartition; sortKey: (...identity: infer A) => string }
    ? (shard: number, ...identity: A) => Key
    : K extends { sortKey: (...identity: infer A) => string }
      ? (...identity: A) => Key
      : never;

type KeyBuilders = { [N in ItemKindName]: KeyBuilder<Kinds[N]> } & {
  [N in ItemKindName as `${N}Partition`]: Kinds[N]['partition'];
};

function keyBuilders(): KeyBuilders {
  const built: Record<string, unknown> = {};
  for (const [name, { partition, sortKey }] of allItemKinds) {
    built[name] =
      typeof partition === 'string'
        ? (...identity: never[]) => ({ pk: partition, sk: sortKey(...identity) })
        : typeof partition === 'function'
          ? (group: RecordGroup, ...identity: never[]) => ({ pk: partition(group), sk: sortKey(...identity) })
          : (shard: number, ...identity: never[]) => ({
              pk: shardPartition(partition, shard),
              sk: sortKey(...identity),
            });
    built[`${name}Partition`] = partition;
  }
  return built as KeyBuilders;
}

/** A bound that sorts after every time-ordered key of that time: `> afterTime(t)` excludes t, `<=` includes it. */
export const afterTime = (at: string) => `${at}#~`;

export const keys = {
  ...keyBuilders(),
  /** Keys of the `changes` index: a group's records in modification order, for delta sync. */
  changePartition: itemKinds.record.changesPartition,
  changeSort: (updatedAt: string, id: string) => timeOrdered(updatedAt, id),
  /** The `listings` index partition of a listing (listings.ts); its sort key is the entity id. */
  listingPartition: itemKinds.record.listingPartition,
  seedMarker: { pk: itemKinds.meta.partition, sk: itemKinds.meta.sortKey('seed') } satisfies Key,
};
