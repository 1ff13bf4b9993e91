// The room conditions of the sets a write adds to (write-steps.ts): merged additions past the limit
// leave no room, even on a record with no set yet.
import { describe, expect, it } from 'vitest';
import { LIMITS } from '../domain/limits';
import { mergeSteps } from './transaction-packs';
import { WriteSteps } from './write-steps';

describe("a student's tutors", () => {
  const steps = new WriteSteps('table');
  const linked = (tutors: number) =>
    mergeSteps(Array.from({ length: tutors }, (_, i) => steps.linkStudent('student-1', `tutor-${i}`)));

  it('are added while the set has room, or is absent', () => {
    const [step] = linked(LIMITS.tutorsPerStudent);
    expect(step?.action.Update?.ConditionExpression).toContain('attribute_not_exists(#tutors) OR');
    expect(step?.action.Update?.ExpressionAttributeValues?.[':room']).toBe(0);
  });

  it('are refused when one write alone adds more than the limit, whether or not the set exists', () => {
    const [step] = linked(LIMITS.tutorsPerStudent + 1);
    expect(step?.action.Update?.ConditionExpression).not.toContain('attribute_not_exists(#tutors)');
    expect(step?.action.Update?.ExpressionAttributeValues?.[':room']).toBe(-1);
  });
});
