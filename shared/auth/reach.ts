// What a request's token may read of a record group, by the role table (roles.ts). A client's token, and a
// person whose roles reach the group `all`, read all of it. Otherwise a person reads a set of ids: `own`,
// their records of the group, named by their entity's roles; `in-care`, the students of their tutor
// records. The set is read fresh on every request, since a person's records and the students in their
// care change while a token lives.
import type { ReadScope } from '../data/read-scope';
import type { RecordRepository } from '../data/record-repository';
import { isRoleGroup, type RecordGroup, roleName } from '../domain/groups';
import type { Entity, EntityRole, Tutor } from '../schemas/records';
import { personRoles, type Reach, reachOf, rolePolicy } from './roles';
import type { AccessToken } from './tokens';

/** The ids of an entity's records of one role. */
export const idsOfRole = (entity: Pick<Entity, 'roles'>, role: EntityRole['role']): string[] =>
  entity.roles.filter((r) => r.role === role).map((r) => r.id);

/** A person's own records of a group: their entity, or their records of its role; no others are anyone's. */
function ownIds(group: RecordGroup, entity: Entity): string[] {
  if (group === 'entities') return [entity.entity_id];
  return isRoleGroup(group) ? idsOfRole(entity, roleName(group)) : [];
}

/** Every group a restricted read of `group` may consult, whoever reads: what its routes are granted. */
export function reachSources(group: RecordGroup): RecordGroup[] {
  const reaches = new Set(personRoles.map((role) => rolePolicy[role][group]));
  return [
    ...(reaches.has('own') || reaches.has('in-care') ? (['entities'] as const) : []),
    ...(reaches.has('in-care') ? (['tutors'] as const) : []),
  ];
}

/** The ids some reaches into a group give, from the person's entity and their tutor records. */
export function idsInReach(
  group: RecordGroup,
  reaches: readonly Reach[],
  entity: Entity,
  tutors: readonly Tutor[],
): string[] {
  const ids = new Set<string>();
  if (reaches.includes('own')) {
    for (const id of ownIds(group, entity)) ids.add(id);
  }
  if (reaches.includes('in-care'))
    for (const tutor of tutors) for (const id of tutor.student_ids) ids.add(id);
  return [...ids].sort();
}

/** What the request's token may read of a group; for a person who may read only some, read from their records. */
export async function readScope(
  auth: AccessToken | undefined,
  group: RecordGroup,
  records: RecordRepository,
): Promise<ReadScope> {
  const person = auth?.person;
  if (!person) return { all: true };
  const reaches = reachOf(person.roles, group);
  if (reaches.includes('all')) return { all: true };
  if (reaches.length === 0) return { all: false, ids: [], changedAt: undefined };
  const entity = (await records.get('entities', person.entityId))?.record;
  // An entity is deleted only once it has no records left, so its person now reads nothing; when that
  // changed is not known any more, so it counts as now.
  if (!entity) return { all: false, ids: [], changedAt: new Date().toISOString() };
  const tutorIds = reaches.includes('in-care') ? idsOfRole(entity, 'tutor') : [];
  const tutors = [...(await records.getMany('tutors', tutorIds)).values()];
  return {
    all: false,
    ids: idsInReach(group, reaches, entity, tutors),
    changedAt: [entity, ...tutors]
      .map((r) => r.updated_at)
      .sort()
      .at(-1),
  };
}
