import { describe, expect, it } from 'vitest';
import { InvalidInputError, StaleVersionError, StateConflictError } from '../domain/errors';
import { LIMITS } from '../domain/limits';
import { claimSteps, linkGuards, linkSteps, referenceGuards, referenceSteps } from './write-rules';
import { WriteSteps } from './write-steps';
import { RETRY, type Step } from './write-transaction';

const steps = new WriteSteps('school');
const id = '00000000-0000-4000-8000-000000000001';
const [s1, s2, s3] = ['s1', 's2', 's3'];

/** What a step does, in a line: its action and the key it acts on. */
const summary = (step: Step) =>
  Object.entries(step.action).map(([action, body]) => {
    const { Key, Item } = body as { Key?: { pk: string; sk: string }; Item?: { pk: string; sk: string } };
    const key = Key ?? Item;
    return `${action} ${key?.pk} ${key?.sk}`;
  })[0];

describe('the processnumber claims of a write', () => {
  it('claim on create, move on a change, release on delete, for groups whose records carry one', () => {
    expect(claimSteps(steps, 'students', id, undefined, { processnumber: 'A1' }).map(summary)).toEqual([
      'Put UNIQ#students#processnumber A1',
    ]);
    expect(
      claimSteps(steps, 'staffs', id, { processnumber: 'A1' }, { processnumber: 'A2' }).map(summary),
    ).toEqual(['Delete UNIQ#staffs#processnumber A1', 'Put UNIQ#staffs#processnumber A2']);
    expect(claimSteps(steps, 'teachers', id, { processnumber: 'A1' }, { processnumber: 'A1' })).toEqual([]);
    expect(claimSteps(steps, 'tutors', id, { processnumber: 'A1' }, undefined).map(summary)).toEqual([
      'Delete UNIQ#tutors#processnumber A1',
    ]);
  });

  it('are none for entities, whatever their fields', () => {
    expect(claimSteps(steps, 'entities', id, undefined, { processnumber: 'A1' })).toEqual([]);
  });
});

describe("a tutor's links to its students", () => {
  it("put the tutor in added students' sets and take it out of removed ones", () => {
    const before = { student_ids: [s1, s2] };
    const after = { student_ids: [s2, s3] };
    expect(linkSteps(steps, 'tutors', id, before, after).map(summary)).toEqual([
      `Update REC#students ${s3}`,
      `Update REC#students ${s1}`,
    ]);
    expect(linkSteps(steps, 'tutors', id, undefined, before)).toHaveLength(2);
  });

  it('are none for other groups, even with a student_ids field', () => {
    expect(linkSteps(steps, 'students', id, undefined, { student_ids: [s1] })).toEqual([]);
  });

  it('keep a student in care from being deleted, and no other record', () => {
    expect(linkGuards('students')).toHaveLength(1);
    for (const group of ['entities', 'teachers', 'tutors', 'staffs'] as const)
      expect(linkGuards(group)).toEqual([]);
  });
});

describe('deleting a record at its version', () => {
  const [guard] = linkGuards('students');
  const step = (ifMatch?: { any: false; versions: number[] }) =>
    steps.deleteVersion('students', id, 3, guard ? [guard] : [], ifMatch);

  it('holds the version and every guard in its condition', () => {
    const { Delete } = step().action;
    expect(Delete?.ConditionExpression).toBe('#v = :v AND attribute_not_exists(#g0)');
    expect(Delete?.ExpressionAttributeNames).toEqual({ '#v': '_version', '#g0': '_tutors' });
    expect(Delete?.ExpressionAttributeValues).toEqual({ ':v': 3 });
  });

  it('tells a failed guard, a stale If-Match and a race apart', () => {
    const failed = step({ any: false, versions: [3] }).onConditionFailed;
    expect(failed?.({ _version: 3, _tutors: new Set(['t1']) })).toBeInstanceOf(StateConflictError);
    expect(failed?.({ _version: 4 })).toBeInstanceOf(StaleVersionError);
    expect(failed?.(undefined)).toBe(RETRY);
    expect(step().onConditionFailed?.({ _version: 4 })).toBe(RETRY);
  });
});

describe('the rostering references of a write', () => {
  const now = '2026-09-14T08:00:00.000Z';
  const klass = { course_id: 'c1', school_id: 'o1', term_ids: ['t1', 't2'] };

  it('count a class on its course, school and terms when made, file it under its course and terms, and move both as it changes', () => {
    expect(referenceSteps(steps, 'classes', id, undefined, klass, now).map(summary)).toEqual([
      'Update REC#courses c1',
      `Put REFD#classes course_id#c1#${id}`,
      'Update REC#entities o1',
      'Update REC#academic_sessions t1',
      'Update REC#academic_sessions t2',
      `Put REFD#classes term_ids#t1#${id}`,
      `Put REFD#classes term_ids#t2#${id}`,
    ]);
    const moved = { ...klass, course_id: 'c2', term_ids: ['t2', 't3'] };
    const changes = referenceSteps(steps, 'classes', id, klass, moved, now);
    expect(changes.map(summary)).toEqual([
      'Update REC#courses c2',
      'Update REC#courses c1',
      `Put REFD#classes course_id#c2#${id}`,
      `Delete REFD#classes course_id#c1#${id}`,
      'Update REC#academic_sessions t3',
      'Update REC#academic_sessions t1',
      `Put REFD#classes term_ids#t3#${id}`,
      `Delete REFD#classes term_ids#t1#${id}`,
    ]);
    const counts = changes.filter((s) => s.action.Update);
    expect(counts.map((s) => s.action.Update?.ExpressionAttributeValues?.[':n'])).toEqual([1, -1, 1, -1]);
    // A newly named record must exist (and be an organisation, for a school); one no longer named need not.
    expect(changes[0]?.action.Update?.ConditionExpression).toBe('attribute_exists(pk)');
    expect(changes[1]?.action.Update?.ConditionExpression).toBeUndefined();
    expect(changes[0]?.onConditionFailed?.(undefined)).toBeInstanceOf(InvalidInputError);
  });

  it('list an enrollment on its class and its person, and only when it is made or deleted', () => {
    const enrollment = { enrollment_id: id, class_id: 'k1', entity_id: 'p1', role: 'student' };
    const made = referenceSteps(steps, 'enrollments', id, undefined, enrollment, now);
    expect(made.map(summary)).toEqual(['Update REC#classes k1', 'Update REC#entities p1']);
    expect(
      made.map((s) => [
        ...((s.action.Update?.ExpressionAttributeValues?.[':e'] as Set<string> | undefined) ?? []),
      ]),
    ).toEqual([[`student#p1#${id}`], [`student#k1#${id}`]]);
    expect(made[1]?.action.Update?.ConditionExpression).toBe(
      'attribute_exists(pk) AND #kind = :kind AND (attribute_not_exists(#a) OR size(#a) <= :room)',
    );
    expect(made[1]?.action.Update?.ExpressionAttributeNames?.['#kind']).toBe('entity_type');
    expect(made[1]?.action.Update?.ExpressionAttributeValues?.[':kind']).toBe('person');
    expect(made[1]?.action.Update?.ExpressionAttributeValues?.[':room']).toBe(
      LIMITS.enrollmentsPerRecord - 1,
    );
    expect(
      referenceSteps(steps, 'enrollments', id, enrollment, { ...enrollment, primary: true }, now),
    ).toEqual([]);
    expect(referenceSteps(steps, 'enrollments', id, enrollment, undefined, now).map(summary)).toEqual([
      'Update REC#classes k1',
      'Update REC#entities p1',
    ]);
  });

  it('refuse a record naming itself', () => {
    expect(() => referenceSteps(steps, 'academic_sessions', id, undefined, { parent_id: id }, now)).toThrow(
      InvalidInputError,
    );
  });

  it('keep what is named from being deleted: counted records while counted, a class while it has enrollments or line items', () => {
    expect(referenceGuards('courses').map((g) => [g.kind, g.attribute])).toEqual([['zero', '_refs']]);
    expect(referenceGuards('academic_sessions').map((g) => [g.kind, g.attribute])).toEqual([
      ['zero', '_refs'],
    ]);
    expect(referenceGuards('classes').map((g) => [g.kind, g.attribute])).toEqual([
      ['zero', '_refs'],
      ['absent', '_enrollments'],
    ]);
    expect(referenceGuards('classes')[0]?.refusal().message).toBe(
      'The class is still named by class_id of other records; change or delete those first.',
    );
    expect(referenceGuards('classes')[1]?.refusal()).toBeInstanceOf(StateConflictError);
    expect(referenceGuards('entities').map((g) => [g.kind, g.attribute])).toEqual([
      ['zero', '_refs'],
      ['absent', '_enrollments'],
    ]);
    expect(referenceGuards('enrollments')).toEqual([]);
    expect(referenceGuards('results')).toEqual([]);
    // A student's results name it: counted, as a course's classes are.
    expect(referenceGuards('students').map((g) => [g.kind, g.attribute])).toEqual([['zero', '_refs']]);
  });
});
