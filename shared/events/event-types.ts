// The change events a subscription may ask for (docs/events.md): `<group>.created`, `<group>.updated`
// and `<group>.deleted` for every record group, or `<group>.*` for all three of a group.
import { type RecordGroup, recordGroups } from '../domain/groups';

export const changeKinds = ['created', 'updated', 'deleted'] as const;
export type ChangeKind = (typeof changeKinds)[number];

export type EventType = `${RecordGroup}.${ChangeKind}`;
/** What a subscription names: one event type, or every type of a group. */
export type EventTypePattern = EventType | `${RecordGroup}.*`;

export const eventTypePatterns: readonly EventTypePattern[] = recordGroups.flatMap((group) => [
  ...changeKinds.map((kind) => `${group}.${kind}` as const),
  `${group}.*` as const,
]);

export const eventType = (group: RecordGroup, kind: ChangeKind): EventType => `${group}.${kind}`;

/** Whether a subscription naming `patterns` wants an event of `type`. */
export function wants(patterns: readonly string[], type: EventType): boolean {
  const group = type.slice(0, type.indexOf('.'));
  return patterns.some((pattern) => pattern === type || pattern === `${group}.*`);
}

/** The record group an event type is about. */
export const groupOf = (type: EventType) => type.slice(0, type.indexOf('.')) as RecordGroup;
