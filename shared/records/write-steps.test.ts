// The room conditions of the sets a write adds to (write-steps.ts): merged additions past the limit
// leave no room, even on a record with no set yet. The tally changes of several records merge into the
// one update that counts them on the record keeping the tally.
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

describe("a line item's tally", () => {
  const steps = new WriteSteps('table');
  const item = { field: 'line_item_id', group: 'line_items', matching: 'class_id' } as const;

  it("merges the results' changes into the update that counts them on the line item, even where they cancel out", () => {
    const [step, ...more] = mergeSteps([
      steps.refer(item, 'item', 1, 'class', [
        JSON.stringify(['r1', '_tally#score#15', 1]),
        JSON.stringify(['r1', '_tally#status#submitted', 1]),
      ]),
      steps.refer(item, 'item', 1, 'class', [
        JSON.stringify(['r2', '_tally#score#15', 1]),
        JSON.stringify(['r2', '_tally#status#submitted', 1]),
      ]),
      steps.refer(item, 'item', 0, 'class', [
        JSON.stringify(['r3', '_tally#score#15', -1]),
        JSON.stringify(['r3', '_tally#score#12', 1]),
      ]),
      steps.refer(item, 'item', 0, 'class', [JSON.stringify(['r4', '_tally#score#12', -1])]),
    ]);
    expect(more).toEqual([]);
    const update = step?.action.Update;
    expect(update?.Key).toEqual({ pk: 'REC#line_items', sk: 'item' });
    expect(update?.ConditionExpression).toContain('#match = :match');
    const names = update?.ExpressionAttributeNames ?? {};
    const values = update?.ExpressionAttributeValues ?? {};
    const added = Object.fromEntries(
      [...(update?.UpdateExpression ?? '').matchAll(/(#\w+) (:\w+)/g)].map(([, n, v]) => [
        names[n as string],
        values[v as string],
      ]),
    );
    expect(added).toEqual({ _refs: 2, _links: 4, '_tally#score#15': 1, '_tally#status#submitted': 2 });
  });
});
