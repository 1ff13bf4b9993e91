// What a change of the table is as an event (docs/events.md): a record put for the first time is
// `<group>.created`, a record whose content changed (a new version, or a new `updated_at`) is
// `<group>.updated`, and a deletion item written is `<group>.deleted`. Every other change (links moved
// by another record's write, tokens, counters, items expiring) is no event. The stream record's own id
// names the event, so a batch the stream hands over again gives the same events.
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { keys } from '../data/keys';
import { internal } from '../data/record-items';
import { idFields, type RecordGroup, recordGroups } from '../domain/groups';
import { type EventType, eventType } from './event-types';

/** A stream record as Lambda's event source and DynamoDB Streams' GetRecords both give it. */
export interface StreamRecord {
  eventID?: string | undefined;
  eventName?: 'INSERT' | 'MODIFY' | 'REMOVE' | string | undefined;
  dynamodb?:
    | {
        Keys?: Record<string, AttributeValue> | undefined;
        NewImage?: Record<string, AttributeValue> | undefined;
        OldImage?: Record<string, AttributeValue> | undefined;
      }
    | undefined;
}

export interface ChangeEvent {
  /** Names the event in every delivery of it: the `webhook-id` header. */
  event_id: string;
  type: EventType;
  record_id: string;
  /** When the change was made: the record's `updated_at`, or its deletion's `deleted_at`. */
  at: string;
}

type Image = Record<string, unknown>;

const byPartition = new Map<string, { group: RecordGroup; deletion: boolean }>(
  recordGroups.flatMap((group) => [
    [keys.recordPartition(group), { group, deletion: false }] as const,
    [keys.deletionPartition(group), { group, deletion: true }] as const,
  ]),
);

/** The partitions whose changes are events: every group's records and deletions. */
export const eventPartitions = [...byPartition.keys()];

const image = (attributes: Record<string, AttributeValue> | undefined): Image | undefined =>
  attributes && (unmarshall(attributes as never) as Image);

/** The event a stream record is, if it is one. */
export function changeOf(record: StreamRecord): ChangeEvent | undefined {
  const pk = record.dynamodb?.Keys?.pk?.S;
  const partition = pk === undefined ? undefined : byPartition.get(pk);
  if (!partition || !record.eventID) return undefined;
  const event_id = `evt_${record.eventID}`;
  const { group, deletion } = partition;
  const next = image(record.dynamodb?.NewImage);
  if (deletion) {
    if (record.eventName !== 'INSERT' || !next) return undefined;
    return {
      event_id,
      type: eventType(group, 'deleted'),
      record_id: String(next[idFields[group]]),
      at: String(next.deleted_at),
    };
  }
  if (!next || (record.eventName !== 'INSERT' && record.eventName !== 'MODIFY')) return undefined;
  const before = image(record.dynamodb?.OldImage);
  const changed =
    !before || before[internal.version] !== next[internal.version] || before.updated_at !== next.updated_at;
  if (!changed) return undefined;
  return {
    event_id,
    type: eventType(group, before ? 'updated' : 'created'),
    record_id: String(next[idFields[group]]),
    at: String(next.updated_at),
  };
}
