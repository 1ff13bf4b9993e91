// How a record is stored: its fields as the API returns them, plus the table keys and internal
// attributes (version, change-index keys, a student's tutors) that never leave the service.
import type { NativeAttributeValue } from '@aws-sdk/lib-dynamodb';
import { idFields, type RecordGroup } from '../domain/groups';
import { laterFields, recordFields } from '../domain/record-fields';
import type { GroupRecords } from '../schemas/records';
import { keys } from './keys';
import { listingOf } from './listings';
import { tableDesign } from './table';
import { TALLY_PREFIX } from './tallies';

export type Item = Record<string, NativeAttributeValue>;

/** Attributes that belong to the storage, not to the record. */
export const internal = {
  version: '_version',
  /** On a student: the set of tutor ids in whose care it is. */
  tutors: '_tutors',
  /** On a session, course or organisation: how many records name it (rostering references). */
  refs: '_refs',
  /** On a class and on a person entity: its enrollments, as enrollment-entries.ts writes them. */
  enrollments: '_enrollments',
  /** On a class and on a person entity: when its enrollments last changed (what a reach through them reads). */
  enrolledAt: '_enrolled_at',
  /**
   * Counts every change to the attributes above, which other records' writes make without a new
   * version: a write of the record itself is conditional on it, so it never puts back stale ones.
   */
  links: '_links',
} as const;

/** The internal attributes a record's next version carries over from the stored one. */
const carriedAttributes: readonly string[] = [
  internal.tutors,
  internal.refs,
  internal.enrollments,
  internal.enrolledAt,
  internal.links,
];

/** What other records' writes keep on a stored record: its internal attributes and its tallies (tallies.ts). */
export const carriedFrom = (item: Item): Item =>
  Object.fromEntries(
    Object.entries(item).filter(
      ([name]) => carriedAttributes.includes(name) || name.startsWith(TALLY_PREFIX),
    ),
  );

const storageAttributes = new Set<string>([
  tableDesign.partitionKey,
  tableDesign.sortKey,
  tableDesign.changesIndex.partitionKey,
  tableDesign.changesIndex.sortKey,
  tableDesign.listingsIndex.partitionKey,
  tableDesign.listingsIndex.sortKey,
  tableDesign.timeToLiveAttribute,
  ...Object.values(internal),
]);

export interface StoredRecord<G extends RecordGroup> {
  record: GroupRecords[G];
  version: number;
}

export function recordId<G extends RecordGroup>(group: G, record: GroupRecords[G]): string {
  return (record as Record<string, unknown>)[idFields[group]] as string;
}

/** The item that stores a record at a version; attributes it keeps beyond the record (such as tutors) are added by the caller. */
export function recordItem<G extends RecordGroup>(group: G, record: GroupRecords[G], version: number): Item {
  const id = recordId(group, record);
  const listing = listingOf(group, record);
  return {
    ...keys.record(group, id),
    ...record,
    [internal.version]: version,
    [tableDesign.changesIndex.partitionKey]: keys.changePartition(group),
    [tableDesign.changesIndex.sortKey]: keys.changeSort(record.updated_at, id),
    ...(listing && {
      [tableDesign.listingsIndex.partitionKey]: keys.listingPartition(listing.listing),
      [tableDesign.listingsIndex.sortKey]: listing.sort,
    }),
  };
}

/**
 * The record an item holds, its fields in the specification's order (DynamoDB keeps none); a field its
 * group gained after the item was stored reads as `laterFields` says.
 */
export function toRecord<G extends RecordGroup>(group: G, item: Item): GroupRecords[G] {
  const record: Item = {};
  const later: Readonly<Record<string, unknown>> = laterFields[group] ?? {};
  for (const field of recordFields[group]) {
    if (field in item) record[field] = item[field];
    else if (field in later) record[field] = later[field];
  }
  for (const field of Object.keys(item))
    if (!(field in record) && !storageAttributes.has(field) && !field.startsWith(TALLY_PREFIX))
      record[field] = item[field];
  return record as GroupRecords[G];
}

/** A ProjectionExpression naming these attributes. */
export const projectionOf = (attributes: readonly string[]) => ({
  ProjectionExpression: attributes.map((_, i) => `#f${i}`).join(', '),
  ExpressionAttributeNames: Object.fromEntries(attributes.map((attribute, i) => [`#f${i}`, attribute])),
});

const projections = new Map<
  RecordGroup,
  { record: ReturnType<typeof projectionOf>; stored: ReturnType<typeof projectionOf> }
>();

const projectionsOf = (group: RecordGroup) => {
  let found = projections.get(group);
  if (!found) {
    found = {
      record: projectionOf(recordFields[group]),
      stored: projectionOf([...recordFields[group], internal.version]),
    };
    projections.set(group, found);
  }
  return found;
};

/**
 * What a read that returns records asks DynamoDB for: the group's fields, and none of the storage's own
 * attributes, which can outweigh them (a district class's enrollment list, some 4 KB; a student's
 * attendance tallies). DynamoDB charges the whole item either way; what is left out is not sent.
 */
export const recordProjection = (group: RecordGroup) => projectionsOf(group).record;

/** The same with the record's version, for a read that answers its ETag. */
export const storedRecordProjection = (group: RecordGroup) => projectionsOf(group).stored;

export function toStoredRecord<G extends RecordGroup>(group: G, item: Item): StoredRecord<G> {
  return { record: toRecord(group, item), version: Number(item[internal.version] ?? 1) };
}

/** How many shards a group's count is kept in (item-kinds.ts): parallel writers each pick one. */
export const COUNTER_SHARDS = 16;

/**
 * On a group's unsharded counter item: how many times a record of the group has moved in its tree (its
 * parent changed), which serialises those moves (write-steps.ts, `treeMoved`).
 */
export const TREE_VERSION = 'tree';

/**
 * The transaction action that changes a group's count by `by`, on a shard picked at random; it goes in
 * every transaction that adds or removes records.
 */
export function countChange(
  tableName: string,
  group: RecordGroup,
  by: number,
  shard = Math.floor(Math.random() * COUNTER_SHARDS),
) {
  return {
    Update: {
      TableName: tableName,
      Key: keys.counter(group, shard),
      UpdateExpression: 'ADD #count :n',
      ExpressionAttributeNames: { '#count': 'count' },
      ExpressionAttributeValues: { ':n': by },
    },
  };
}

/** The entity tag of a record version: strong, quoted (RFC 9110 section 8.8.3). */
export const etag = (version: number) => `"${version}"`;
