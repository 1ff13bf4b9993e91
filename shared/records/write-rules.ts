// What a write of each group involves besides the record's own item, by the group's description
// (shared/domain/groups.ts): its processnumber claim, a tutor's links to its students and the guard they
// put on deleting a student, and how the record stands to its person entity. That last one is a rule per
// group, listed for every group: a new group has to say how its records are made, replaced and deleted.
import { randomUUID } from 'node:crypto';
import { type Item, internal, recordItem } from '../data/record-items';
import { enrollmentEntry, linkedIds, namedIds, naturalKeyOf } from '../data/record-links';
import type { RecordRepository } from '../data/record-repository';
import { tallyChange, tallyKeptBy } from '../data/tallies';
import { InvalidInputError, StateConflictError } from '../domain/errors';
import {
  type GroupDescription,
  groups,
  idFields,
  isRoleGroup,
  type RecordGroup,
  type Reference,
  type RoleGroup,
  recordGroups,
  roleName,
  roleNamesInWords,
} from '../domain/groups';
import { capitalised, withArticle } from '../domain/words';
import type { Enrollment, Entity, GroupRecords } from '../schemas/records';
import type { InsertRequest } from '../schemas/requests';
import type { Claim, DeleteGuard, WriteSteps } from './write-steps';
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
  /** The fields a replace request gives the current record (stored as `stored`), or the error refusing it. */
  replace(current: GroupRecords[G], input: InsertRequest<G>, id: string, stored: Item): GroupRecords[G];
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
  replace(current, input, _id, stored) {
    if (input.entity_type !== current.entity_type) {
      const named =
        current.roles.length > 0
          ? 'the entity has roles'
          : Number(stored[internal.refs] ?? 0) > 0
            ? 'courses, classes or organisations name the organisation'
            : stored[internal.enrollments]
              ? 'the person has enrollments'
              : undefined;
      if (named) {
        throw new StateConflictError(
          `The entity stays ${current.entity_type === 'person' ? 'a person' : 'an organisation'}.`,
          [{ name: 'entity_type', in: 'body', reason: named }],
        );
      }
    }
    return { ...input, entity_id: current.entity_id, roles: current.roles } as unknown as Entity;
  },
  remove: async () => ({ guards: [rolesGuard], steps: [] }),
};

/** An entity is deleted once it has no role records left. */
export const rolesGuard: DeleteGuard = {
  kind: 'empty',
  attribute: 'roles',
  refusal: () =>
    new StateConflictError(`The entity still has roles; delete its ${roleNamesInWords} records first.`),
};

/**
 * A rostering record (session, course, class, enrollment), a gradebook, attendance or assessment one: made
 * as sent, with its id and times; what it names is kept by the reference steps, not by these rules.
 */
function rosterRules<G extends Exclude<RecordGroup, 'entities' | RoleGroup>>(group: G): PersonRules<G> {
  const stamp = (id: string, input: InsertRequest<G>) =>
    ({ [idFields[group]]: id, ...input }) as unknown as GroupRecords[G];
  return {
    create: (input, id, { now }) => ({
      record: { ...stamp(id, input), created_at: now, updated_at: now } as GroupRecords[G],
      steps: [],
    }),
    replace(current, input, id, stored) {
      for (const field of (groups[group] as GroupDescription).fixed ?? []) {
        const was = (current as Record<string, unknown>)[field];
        if ((input as Record<string, unknown>)[field] !== was) {
          throw new StateConflictError(
            `${capitalised(withArticle(groups[group].noun))} keeps its ${field}.`,
            [{ name: field, in: 'body', reason: `must be ${String(was)}` }],
          );
        }
      }
      // A record others name as a kind of record (a category's school year) stays of that kind while named:
      // the count of names does not say which field names it, so any name holds the kind.
      if (Number(stored[internal.refs] ?? 0) > 0) {
        for (const field of kindFieldsOf(group)) {
          const was = (current as Record<string, unknown>)[field];
          if ((input as Record<string, unknown>)[field] !== was) {
            throw new StateConflictError(`The ${groups[group].noun} stays of ${field} ${String(was)}.`, [
              { name: field, in: 'body', reason: 'other records name it' },
            ]);
          }
        }
      }
      return stamp(id, input);
    },
    remove: async () => ({ guards: [], steps: [] }),
  };
}

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
      // Like another id in the body (read-only-fields.ts), another entity_id is a bad request, not a
      // conflict: no state of the record would make it valid.
      if (entityId !== undefined && entityId !== currentEntity) {
        throw new InvalidInputError('A record stays with the entity it was created for.', [
          { name: 'entity_id', in: 'body', reason: `must be ${currentEntity} or left out` },
        ]);
      }
      return { [idFields[group]]: id, ...fields, entity_id: currentEntity } as unknown as GroupRecords[G];
    },
    async remove(record, id, { steps, records, now }) {
      const entityId = (record as GroupRecords[RoleGroup]).entity_id;
      const entity = await records.getItem('entities', entityId);
      const roles = (entity?.roles ?? []) as Entity['roles'];
      const index = roles.findIndex((r) => r.id === id);
      // The entity lists every role record it has: one missing here was read in a race.
      if (!entity || index < 0) throw new Retry();
      return {
        guards: [],
        steps: [steps.leaveEntity(entityId, index, Number(entity[internal.version]), now, roles.length - 1)],
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
  academic_sessions: rosterRules('academic_sessions'),
  courses: rosterRules('courses'),
  classes: rosterRules('classes'),
  enrollments: rosterRules('enrollments'),
  categories: rosterRules('categories'),
  score_scales: rosterRules('score_scales'),
  line_items: rosterRules('line_items'),
  results: rosterRules('results'),
  attendance: rosterRules('attendance'),
  assessment_line_items: rosterRules('assessment_line_items'),
  assessment_results: rosterRules('assessment_results'),
};

/** What a record claims of each kind (write-steps.ts, `claim`): its processnumber, its natural key. */
const claimed = (group: RecordGroup, record: object | undefined): Record<Claim, string | undefined> => ({
  processnumber:
    groups[group].processnumber && record ? (record as { processnumber: string }).processnumber : undefined,
  naturalKey: naturalKeyOf(group, record),
});

/**
 * Moves a record's claims as it goes from `before` to `after` (none: created, or deleted): its
 * processnumber, and its natural key, which a replace keeps (its fields are fixed).
 */
export function claimSteps(
  steps: WriteSteps,
  group: RecordGroup,
  id: string,
  before: object | undefined,
  after: object | undefined,
): Step[] {
  const was = claimed(group, before);
  const is = claimed(group, after);
  return (['processnumber', 'naturalKey'] as const).flatMap((claim) => {
    if (was[claim] === is[claim]) return [];
    return [
      ...(was[claim] === undefined ? [] : [steps.release(claim, group, was[claim], id)]),
      ...(is[claim] === undefined ? [] : [steps.claim(claim, group, is[claim], id)]),
    ];
  });
}

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

/**
 * A person's user is enabled while any of their role records is active (OneRoster's `enabledUser`), so a
 * role record whose `ative` changes marks its entity changed too, in the same transaction.
 */
export function enabledSteps(
  steps: WriteSteps,
  group: RecordGroup,
  before: object,
  after: object,
  now: string,
): Step[] {
  if (!isRoleGroup(group)) return [];
  const was = before as GroupRecords[RoleGroup];
  const is = after as GroupRecords[RoleGroup];
  return was.ative === is.ative ? [] : [steps.touchEntity(is.entity_id, now)];
}

/** A record other records link to is not deleted while any does: a student still in a tutor's care. */
export function linkGuards(group: RecordGroup): DeleteGuard[] {
  if (!recordGroups.some((g) => groups[g].links?.group === group)) return [];
  return [
    {
      kind: 'absent',
      attribute: internal.tutors,
      refusal: () =>
        new StateConflictError(
          'The student is still in the care of tutors; change or delete those tutors first.',
        ),
    },
  ];
}

/**
 * Keeps what a record names in step as it goes from `before` to `after` (none: created, or deleted):
 * a newly named record must exist (and is counted), one no longer named is counted down, a record is
 * filed under what it names through a listed reference, and an enrollment's class and person list it
 * while it exists.
 */
export function referenceSteps(
  steps: WriteSteps,
  group: RecordGroup,
  id: string,
  before: object | undefined,
  after: object | undefined,
  now: string,
): Step[] {
  return groups[group].references.flatMap((reference: Reference) => {
    const was = namedIds(reference, before);
    const is = namedIds(reference, after);
    if (reference.group === group && is.includes(id)) {
      throw new InvalidInputError(`${reference.field} names the ${groups[group].noun} itself.`, [
        { name: reference.field, in: 'body', reason: 'must name another record' },
      ]);
    }
    if (reference.enrollments) {
      // An enrollment's class and person are fixed: listed when it is made, unlisted when deleted.
      if ((before === undefined) === (after === undefined)) return [];
      const entry = enrollmentEntry(reference, (after ?? before) as Enrollment);
      return is
        .map((target) => steps.enroll(reference, target, [entry], true, now))
        .concat(was.map((target) => steps.enroll(reference, target, [entry], false, now)));
    }
    const matching =
      reference.matching && (after as Record<string, string | null> | undefined)?.[reference.matching];
    // The record keeping the group's tally (tallies.ts) has it changed by the update that counts this one.
    const keeps = tallyKeptBy(group) === reference.field;
    const tally = (from: object | undefined, to: object | undefined) =>
      keeps ? [...tallyChange(group, from, to)].map(([name, by]) => JSON.stringify([id, name, by])) : [];
    const still = is.filter((t) => was.includes(t));
    const moved = tally(before, after);
    const named = is.filter((t) => !was.includes(t));
    const unnamed = was.filter((t) => !is.includes(t));
    // A listed reference files the record under each record it names (item-kinds.ts, `referrer`).
    const filed = (targets: string[], under: boolean) =>
      reference.listed ? targets.map((target) => steps.referrer(reference, group, target, id, under)) : [];
    return [
      ...named.map((target) => steps.refer(reference, target, 1, matching, tally(undefined, after))),
      ...unnamed.map((target) => steps.refer(reference, target, -1, undefined, tally(before, undefined))),
      ...(moved.length > 0 ? still.map((target) => steps.refer(reference, target, 0, matching, moved)) : []),
      ...filed(named, true),
      ...filed(unnamed, false),
    ];
  });
}

/** The references into a group from every group's descriptions. */
const referencesInto = (group: RecordGroup) =>
  recordGroups.flatMap((g): Reference[] => groups[g].references.filter((r: Reference) => r.group === group));

/** The fields of a group that references into it check the kind of (`kind` in groups.ts). */
const kindFieldsOf = (group: RecordGroup): string[] => [
  ...new Set(referencesInto(group).flatMap((r) => (r.kind ? [r.kind.field] : []))),
];

/**
 * A record others name is not deleted while they do: a session, course or organisation while counted,
 * a class while it has enrollments. A person's enrollments are ended before the person is deleted
 * (record-writer.ts), so one still there is a race: the delete is tried again.
 */
export function referenceGuards(group: RecordGroup): DeleteGuard[] {
  const into = referencesInto(group);
  const counted = into.filter((r) => !r.enrollments);
  const listed = into.filter((r) => r.enrollments);
  return [
    ...(counted.length > 0
      ? [
          {
            kind: 'zero',
            attribute: internal.refs,
            refusal: () =>
              new StateConflictError(
                `The ${groups[group].noun} is still named by ${[...new Set(counted.map((r) => r.field))].join(', ')} of other records; change or delete those first.`,
              ),
          } satisfies DeleteGuard,
        ]
      : []),
    ...(listed.length > 0
      ? [
          {
            kind: 'absent',
            attribute: internal.enrollments,
            refusal: () =>
              group === 'classes'
                ? new StateConflictError('The class still has enrollments; delete them first.')
                : new Retry(),
          } satisfies DeleteGuard,
        ]
      : []),
  ];
}
