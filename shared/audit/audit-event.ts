// An audit event: who read or changed which person records, through which route, when and with what
// outcome (issue 15). It names records by id and never carries their content, so the audit log holds no
// personal data beyond ids. One event per request to a route of a person group (entities and every
// group of a person's roles, and the OneRoster routes of people); `entity_ids` are the people the records
// belong to, which is what `npm run admin -- audit person <entity_id>` looks for.
import type { AccessToken } from '../auth/access-token';
import type { RecordGroup } from '../domain/groups';
import type { AuditSubject } from '../http/subject';
import type { RouteAudit } from '../route';

export interface AuditEvent {
  time: string;
  request_id: string;
  route: string;
  method: string;
  action: 'read' | 'write';
  /** The group of the records it names, or `clients` for a change to the tenant's OAuth clients. */
  group: RecordGroup | 'clients';
  /**
   * The records whose data shaped the answer (by id in the group): those the request named, returned, or
   * selected by a condition the client chose (docs/privacy.md gives the rule).
   */
  record_ids: string[];
  /** The person entities those records belong to. */
  entity_ids: string[];
  /** Which of an answer's events this is, when its ids are split over several (IDS_PER_EVENT). */
  part?: number;
  parts?: number;
  /** The HTTP status answered. */
  outcome: number;
  client_id: string | undefined;
  /** The person acting, for a person's token; none for a client's own. */
  actor_user_id: string | undefined;
  actor_entity_id: string | undefined;
}

/**
 * The records a request names in its path, for the event of a request whose handler said nothing (it
 * failed, or names a person whose other records it lists): the path parameters its route's audit names.
 */
export function namedSubject(
  { group, named, caseless }: RouteAudit,
  parameters: Record<string, string | undefined>,
): AuditSubject {
  const ids = named
    .map((name) => parameters[name])
    .filter((id): id is string => id !== undefined)
    // Read in lower case, as the routes read them, so `audit person` finds any spelling.
    .map((id) => (caseless ? id.toLowerCase() : id));
  return { recordIds: ids, entityIds: group === 'entities' ? ids : [] };
}

/** The ids of some records and the entities they belong to (an entity belongs to itself), each once. */
export function subjectOf(idField: string, records: readonly unknown[]): AuditSubject {
  const rows = records as Record<string, unknown>[];
  const ids = (field: string) => [
    ...new Set(rows.map((r) => r[field]).filter((v): v is string => typeof v === 'string')),
  ];
  return {
    recordIds: ids(idField),
    entityIds: ids('entity_id'),
  };
}

/**
 * The most record ids, and the most entity ids, one event carries. An event is one log line, and
 * CloudWatch Logs takes a line of at most 256 KB: 1,000 of each (UUIDs, 39 bytes each as JSON) stay
 * under 80 KB. An answer that names more is written as several events, `part` 1 to `parts`.
 */
export const IDS_PER_EVENT = 1_000;

export function auditEvents(input: {
  route: { id: string; method: string; access: string };
  group: AuditEvent['group'];
  requestId: string;
  auth: AccessToken | undefined;
  subject: AuditSubject;
  outcome: number;
  now?: Date;
}): AuditEvent[] {
  const { route, auth, subject } = input;
  const parts = Math.max(
    1,
    Math.ceil(subject.recordIds.length / IDS_PER_EVENT),
    Math.ceil(subject.entityIds.length / IDS_PER_EVENT),
  );
  const slice = (ids: string[], part: number) => ids.slice(part * IDS_PER_EVENT, (part + 1) * IDS_PER_EVENT);
  const event: AuditEvent = {
    time: (input.now ?? new Date()).toISOString(),
    request_id: input.requestId,
    route: route.id,
    method: route.method,
    action: route.access === 'read' ? 'read' : 'write',
    group: input.group,
    record_ids: subject.recordIds,
    entity_ids: subject.entityIds,
    outcome: input.outcome,
    client_id: auth?.clientId,
    actor_user_id: auth?.person?.userId,
    actor_entity_id: auth?.person?.entityId,
  };
  if (parts === 1) return [event];
  return Array.from({ length: parts }, (_, part) => ({
    ...event,
    record_ids: slice(subject.recordIds, part),
    entity_ids: slice(subject.entityIds, part),
    part: part + 1,
    parts,
  }));
}
