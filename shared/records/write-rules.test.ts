import { describe, expect, it } from 'vitest';
import { ConflictError, PreconditionFailedError } from '../http/errors';
import { claimSteps, linkGuards, linkSteps } from './write-rules';
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
    expect(failed?.({ _version: 3, _tutors: new Set(['t1']) })).toBeInstanceOf(ConflictError);
    expect(failed?.({ _version: 4 })).toBeInstanceOf(PreconditionFailedError);
    expect(failed?.(undefined)).toBe(RETRY);
    expect(step().onConditionFailed?.({ _version: 4 })).toBe(RETRY);
  });
});
