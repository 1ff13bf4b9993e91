import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { recordGroups } from '../domain/groups';
import { fallbackRoute, partitionsRead, routes } from '../routes';
import { allItemKinds, type Partition, partitionPattern, shardPartitions } from './item-kinds';
import { type ListingName, listingNames } from './listings';

/** The `pk` cell of each row of the data-model doc's table of items. */
function documentedPartitions(): string[] {
  const doc = readFileSync(new URL('../../docs/data-model.md', import.meta.url), 'utf8');
  const table = doc.split('## Items')[1]?.split('\n\n')[1] ?? '';
  return table
    .split('\n')
    .slice(2)
    .map((row) => row.split('|')[2]?.match(/`([^`]+)`/)?.[1] ?? row);
}

const partitionsOf = (partition: Partition | undefined) =>
  partition === undefined
    ? []
    : typeof partition === 'string'
      ? [partition]
      : typeof partition === 'function'
        ? recordGroups.map(partition)
        : shardPartitions(partition);
const listingPartitionsOf = (partition: ((listing: ListingName) => string) | undefined) =>
  partition === undefined ? [] : listingNames.map(partition);

describe('item kinds', () => {
  it('each have a row in docs/data-model.md, and the doc lists no other', () => {
    const documented = documentedPartitions();
    const declared = allItemKinds.map(([, kind]) => partitionPattern(kind.partition));
    expect(new Set(documented)).toEqual(new Set(declared));
  });

  it('each have a partition of their own', () => {
    const patterns = allItemKinds.map(([, kind]) => partitionPattern(kind.partition));
    expect(new Set(patterns).size).toBe(patterns.length);
  });

  it('hold every partition a route may read or write', () => {
    const declared = new Set(
      allItemKinds.flatMap(([, kind]) => [
        ...partitionsOf(kind.partition),
        ...partitionsOf(kind.changesPartition),
        ...listingPartitionsOf(kind.listingPartition),
      ]),
    );
    for (const route of [...routes, fallbackRoute])
      for (const partition of [...partitionsRead(route), ...route.writes])
        expect(declared, `${route.id}: ${partition}`).toContain(partition);
  });
});
