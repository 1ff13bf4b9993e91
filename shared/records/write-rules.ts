// What a write of each group involves besides the record's own item, by the group's description
// (shared/domain/groups.ts): its processnumber claim, a tutor's links to its students and the guard they
// put on deleting a student, and how the record stands to its person entity. That last one is a rule per
// group, listed for every group: a new group has to say how its records are made, replaced and deleted.
import { randomUUID } from 'node:crypto';
import { internal, recordItem } from '../data/record-items';
import type { RecordRepository } from '../data/record-repository';
import {
  groups,
  idFields,
  type RecordGroup,
  type RoleGroup,
  recordGroups,
  roleName,
  roleNamesInWords,
} from '../domain/groups';
import { ConflictError } from '../http/errors';
import type { Entity, GroupRecords } from '../schemas/records';
import type { InsertRequest } from '../schemas/requests';
import type { DeleteGuard, WriteSteps } from './write-steps';
import { Retry, type Step } from './write-transaction';

/** What a rule builds its steps with: the step builder, the write's time, and the records to read. */
export interface WriteContext {
  steps: WriteSteps;
  records: RecordRepository;
  now: string;
}

/** How a group's records stand to a person entity, in each write. */
export interface PersonRules<G extends RecordGroup> {
  /** The record a create request makes, and the steps its entity takes. */
  create(
    input: InsertRequest<G>,
    id: string,
    context: WriteContext,
  ): { record: GroupRecords[G]; steps: Step[] };
  /** The fields a replace request gives the current record, or the error refusing it. */
  replace(current: GroupRecords[G], input: InsertRequest<G>, id: string): GroupRecords[G];
  /** What deleting a record needs: conditions on the record, and the steps its entity takes. */
  remove(
    record: GroupRecords[G],
    id: string,
    context: WriteContext,
  ): Promise<{ guards: DeleteGuard[]; steps: Step[] }>;
}

/** An entity: a person or an organisation, holding the roles its person has. */
const entityRules: PersonRules<'entities'> = {
  create: (input, id, { now }) => ({
    record: { entity_id: id, ...input, roles: [], created_at: now, updated_at: now },
    steps: [],
  }),
  replace(current, input) {
    if (input.entity_type !== current.entity_type && current.roles.length > 0) {
      throw new ConflictError('An entity with roles stays a person.', [
        { name: 'entity_type', in: 'body', reason: 'the entity has roles' },
      ]);
    }
    return { ...input, entity_id: current.entity_id, roles: current.roles } as unknown as Entity;
  },
  remove: async () => ({
    guards: [
      {
        kind: 'empty',
        attribute: 'roles',
        refusal: () =>
          new ConflictError(`The entity still has roles; delete its ${roleNamesInWords} records first.`),
      },
    ],
    steps: [],
  }),
};

/**
 * A role of a person entity: created with a new person entity, or joining the one `entity_id` names,
 * and leaving it when deleted. The record stays with its entity.
 */
function roleRules<G extends RoleGroup>(group: G): PersonRules<G> {
  return {
    create(input, id, { steps, now }) {
      const { entity_id: joining, ...fields } = input as InsertRequest<RoleGroup>;
      const entityId = joining ?? randomUUID();
      const record = {
        [idFields[group]]: id,
        ...fields,
        entity_id: entityId,
        created_at: now,
        updated_at: now,
      } as unknown as GroupRecords[G];
      const role = { role: roleName(group), id };
      if (joining) return { record, steps: [steps.joinEntity(joining, role, now)] };
      const { name, email, addresses, contacts, documents, bankAccounts } = fields;
      const entity: Entity = {
        entity_id: entityId,
        entity_type: 'person',
        name,
        email,
        addresses,
        contacts,
        documents,
        bankAccounts,
        roles: [role],
        created_at: now,
        updated_at: now,
      };
      return {
        record,
        steps: [steps.putNew(recordItem('entities', entity, 1)), steps.count('entities', 1)],
      };
    },
    replace(current, input, id) {
      const { entity_id: entityId, ...fields } = input as InsertRequest<RoleGroup>;
      const currentEntity = (current as GroupRecords[RoleGroup]).entity_id;
      if (entityId !== undefined && entityId !== currentEntity) {
        throw new ConflictError('A record stays with the entity it was created for.', [
          { name: 'entity_id', in: 'body', reason: `must be ${currentEntity} or left out` },
        ]);
      }
      return { [idFields[group]]: id, ...fields, entity_id: currentEntity } as unknown as GroupRecords[G];
    },
    async remove(record, id, { steps, records, now }) {
      const entityId = (record as GroupRecords[RoleGroup]).entity_id;
      const entity = await records.getItem('entities', entityId);
      const index = ((entity?.roles ?? []) as Entity['roles']).findIndex((r) => r.id === id);
      // The entity lists every role record it has: one missing here was read in a race.
      if (!entity || index < 0) throw new Retry();
      return {
        guards: [],
        steps: [steps.leaveEntity(entityId, index, Number(entity[internal.version]), now)],
      };
    },
  };
}

/** Every group's rule; a group's description alone does not say how its records stand to a person. */
export const personRules: { [G in RecordGroup]: PersonRules<G> } = {
  entities: entityRules,
  students: roleRules('students'),
  teachers: roleRules('teachers'),
  tutors: roleRules('tutors'),
  staffs: roleRules('staffs'),
};

const processnumberOf = (group: RecordGroup, record: object | undefined): string | undefined =>
  groups[group].processnumber && record ? (record as { processnumber: string }).processnumber : undefined;

/** Moves a record's processnumber claim as it goes from `before` to `after` (none: created, or deleted). */
export function claimSteps(
  steps: WriteSteps,
  group: RecordGroup,
  id: string,
  before: object | undefined,
  after: object | undefined,
): Step[] {
  const was = processnumberOf(group, before);
  const is = processnumberOf(group, after);
  if (was === is) return [];
  return [
    ...(was === undefined ? [] : [steps.releaseProcessnumber(group, was, id)]),
    ...(is === undefined ? [] : [steps.claimProcessnumber(group, is, id)]),
  ];
}

const linkedIds = (group: RecordGroup, record: object | undefined): string[] => {
  const field = groups[group].links?.field;
  const ids = field && record ? (record as Record<string, unknown>)[field] : undefined;
  return Array.isArray(ids) ? (ids as string[]) : [];
};

/** Keeps each linked student's set of tutors in step with a tutor's student_ids; added students must exist. */
export function linkSteps(
  steps: WriteSteps,
  group: RecordGroup,
  id: string,
  before: object | undefined,
  after: object | undefined,
): Step[] {
  const was = linkedIds(group, before);
  const is = linkedIds(group, after);
  return [
    ...is.filter((s) => !was.includes(s)).map((studentId) => steps.linkStudent(studentId, id)),
    ...was.filter((s) => !is.includes(s)).map((studentId) => steps.unlinkStudent(studentId, id)),
  ];
}

/** A record other records link to is not deleted while any does: a student still in a tutor's care. */
export function linkGuards(group: RecordGroup): DeleteGuard[] {
  if (!recordGroups.some((g) => groups[g].links?.group === group)) return [];
  return [
    {
      kind: 'absent',
      attribute: internal.tutors,
      refusal: () =>
        new ConflictError('The student is still in the care of tutors; change or delete those tutors first.'),
    },
  ];
}
