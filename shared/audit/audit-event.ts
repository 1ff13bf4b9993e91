// An audit event: who read or changed which person records, through which route, when and with what
// outcome (issue 15). It names records by id and never carries their content, so the audit log holds no
// personal data beyond ids. One event per request to a route of a person group (entities and every
// group of a person's roles); `entity_ids` are the people the records belong to, which is what
// `npm run admin -- audit person <entity_id>` looks for.
import type { AccessToken } from '../auth/tokens';
import { isRoleGroup, type RecordGroup, recordGroups } from '../domain/groups';

export interface AuditEvent {
  time: string;
  request_id: string;
  route: string;
  method: string;
  action: 'read' | 'write';
  group: RecordGroup;
  /** The records the request named or returned (by id in the group). */
  record_ids: string[];
  /** The person entities those records belong to. */
  entity_ids: string[];
  /** The HTTP status answered. */
  outcome: number;
  client_id: string | undefined;
  /** The person acting, for a person's token; none for a client's own. */
  actor_user_id: string | undefined;
  actor_entity_id: string | undefined;
}

/** What a record handler says it touched, for the audit event of its request. */
export interface AuditSubject {
  recordIds: string[];
  entityIds: string[];
}

/** The person group a route's path serves, if any: the routes whose requests are audited. */
export function auditedGroup(path: string): RecordGroup | undefined {
  const segment = path.split('/')[2];
  const group = recordGroups.find((g) => g === segment);
  return group !== undefined && (group === 'entities' || isRoleGroup(group)) ? group : undefined;
}

/** The ids of some records and the entities they belong to (an entity belongs to itself). */
export function subjectOf(idField: string, records: readonly unknown[]): AuditSubject {
  const rows = records as Record<string, unknown>[];
  const ids = (field: string) => rows.map((r) => r[field]).filter((v): v is string => typeof v === 'string');
  return {
    recordIds: ids(idField),
    entityIds: [...new Set(ids('entity_id'))],
  };
}

export function auditEvent(input: {
  route: { id: string; method: string; access: string };
  group: RecordGroup;
  requestId: string;
  auth: AccessToken | undefined;
  subject: AuditSubject;
  outcome: number;
  now?: Date;
}): AuditEvent {
  const { route, auth, subject } = input;
  return {
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
}
