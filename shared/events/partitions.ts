// The table partitions the change events' functions touch, for their IAM grants (infra/tenant-events.ts),
// derived from what their code reads and writes: the stream function's event source takes only the
// partitions whose changes are events or replays.
import { schoolHeldSources, schoolSources } from '../auth/school-scope';
import { shardPartitions } from '../data/item-kinds';
import { keys } from '../data/keys';
import { recordGroups } from '../domain/groups';
import { eventPartitions } from './change-events';

/** The partitions whose stream records the stream function is handed: records, deletions, replays. */
export const streamPartitions = [...eventPartitions, keys.webhookReplayPartition];

export const streamFunctionAccess = {
  reads: [keys.webhookPartition, ...shardPartitions(keys.webhookEventPartition)],
  writes: [...shardPartitions(keys.webhookEventPartition), keys.webhookReplayPartition],
};

/**
 * The delivery function reads the subscription, its client, and the event's record with what tells
 * whether the client may read it (its schools' holdings, the deletions a school was told); it disables
 * a failing subscription and keeps each attempt.
 */
export const deliveryFunctionAccess = {
  reads: [
    ...new Set([
      keys.webhookPartition,
      keys.clientPartition,
      ...recordGroups.flatMap((group) => [
        keys.recordPartition(group),
        keys.deletionPartition(group),
        ...schoolSources(group),
        ...schoolHeldSources(group),
      ]),
    ]),
  ],
  writes: [keys.webhookPartition, keys.webhookDeliveryPartition],
};
