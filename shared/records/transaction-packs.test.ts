import { describe, expect, it } from 'vitest';
import { groups, type Reference } from '../domain/groups';
import { LIMITS } from '../domain/limits';
import { itemOf, mergeSteps, packWrites, withChecks } from './transaction-packs';
import { WriteSteps } from './write-steps';
import { RETRY, type Step } from './write-transaction';

const put = (pk: string, sk: string): Step => ({ action: { Put: { TableName: 't', Item: { pk, sk } } } });
const update = (pk: string, sk: string): Step => ({
  action: { Update: { TableName: 't', Key: { pk, sk }, UpdateExpression: 'SET a = :a' } },
});

/** An enrollment's writes: its own item, and an update of its class and of its person. */
const enrollment = (id: number, classId: number, personId: number) => ({
  id,
  steps: [
    put('REC#enrollments', `e${id}`),
    update('REC#classes', `c${classId}`),
    update('REC#entities', `p${personId}`),
  ],
});

describe('transaction packs', () => {
  it('name a step by the item it acts on, whatever the action', () => {
    expect(itemOf(put('A', '1'))).toBe(itemOf(update('A', '1')));
    expect(itemOf(put('A', '1'))).not.toBe(itemOf(put('A', '2')));
  });

  it('hold every write once, at most `room` actions each, and never touch an item twice in a pack', () => {
    const writes = Array.from({ length: 400 }, (_, i) => enrollment(i, i % 7, Math.floor(i / 8)));
    const packs = packWrites(writes, 99);
    expect(
      packs
        .flat()
        .map((w) => w.id)
        .sort((a, b) => a - b),
    ).toEqual(writes.map((w) => w.id));
    for (const pack of packs) {
      const items = pack.flatMap((w) => w.steps.map(itemOf));
      expect(items.length).toBeLessThanOrEqual(99);
      expect(new Set(items).size).toBe(items.length);
    }
  });

  it('fill packs where the writes allow: writes touching nothing in common share one', () => {
    const writes = Array.from({ length: 66 }, (_, i) => enrollment(i, i, i));
    expect(packWrites(writes, 99).map((pack) => pack.length)).toEqual([33, 33]);
  });

  it('give a write larger than a pack a pack of its own', () => {
    const big = { id: 0, steps: Array.from({ length: 120 }, (_, i) => put('X', String(i))) };
    const packs = packWrites([big, enrollment(1, 1, 1)], 99);
    expect(packs).toContainEqual([big]);
    expect(packs.flat()).toHaveLength(2);
  });
});

describe('changes that add up', () => {
  const steps = new WriteSteps('t');
  const reference = groups.enrollments.references.find((r) => r.group === 'classes') as Reference;
  const values = (step: Step) => step.action.Update?.ExpressionAttributeValues ?? {};

  it("share a pack and merge into one action: a class's entries, a group's count", () => {
    const writes = Array.from({ length: 30 }, (_, i) => ({
      steps: [
        put('REC#enrollments', `e${i}`),
        steps.enroll(reference, 'c1', [`student#p${i}#e${i}`], true, 'now'),
        steps.count('enrollments', 1),
      ],
    }));
    const packs = packWrites(writes, 99);
    expect(packs).toHaveLength(1);
    const merged = mergeSteps(packs.flat().flatMap((w) => w.steps));
    expect(merged).toHaveLength(32);
    const enroll = merged.find((s) => s.action.Update?.Key?.pk === 'REC#classes') as Step;
    const count = merged.find((s) => s.action.Update?.Key?.pk === 'COUNTER') as Step;
    expect(values(enroll)[':e']).toEqual(new Set(writes.map((_, i) => `student#p${i}#e${i}`)));
    // As 30 writes in turn: the class's links changed 30 times, and it has room for all 30 entries.
    expect(values(enroll)[':changes']).toBe(30);
    expect(values(enroll)[':room']).toBe(LIMITS.enrollmentsPerRecord - 30);
    expect(values(count)[':n']).toBe(30);
    expect(count.action.Update?.Key?.sk).toMatch(/^enrollments#\d+$/);
  });

  it('keep apart from other writes to the same item, and from changes of another kind', () => {
    const adding = { steps: [steps.enroll(reference, 'c1', ['a'], true, 'now')] };
    const removing = { steps: [steps.enroll(reference, 'c1', ['b'], false, 'now')] };
    const replacing = { steps: [put('REC#classes', 'c1')] };
    expect(packWrites([adding, removing, replacing], 99)).toEqual([[adding], [removing], [replacing]]);
  });
});

describe('checks added to a transaction', () => {
  const check = (pk: string, sk: string, condition: string, refusal: Error): Step => ({
    action: {
      ConditionCheck: {
        TableName: 't',
        Key: { pk, sk },
        ConditionExpression: condition,
        ExpressionAttributeNames: { '#h': 'held' },
        ExpressionAttributeValues: { ':h': 1 },
      },
    },
    onConditionFailed: (current) => (current?.held === 1 ? RETRY : refusal),
  });
  const guarded = (pk: string, sk: string, condition: string, failure: Error): Step => ({
    action: {
      Update: {
        TableName: 't',
        Key: { pk, sk },
        UpdateExpression: 'SET a = :a',
        ConditionExpression: condition,
        ExpressionAttributeValues: { ':a': 1 },
      },
    },
    onConditionFailed: () => failure,
  });

  it("join the action on their item, in one condition DynamoDB takes (parentheses only around an OR), and say whose condition failed from the item's old value", () => {
    const refused = new Error('the check');
    const gone = new Error('the update');
    const [merged, other] = withChecks([
      guarded('A', '1', 'attribute_exists(pk) OR b = :a', gone),
      put('B', '1'),
      check('A', '1', 'contains(#h, :h)', refused),
    ]);
    expect(other).toEqual(put('B', '1'));
    expect(merged?.action.Update).toMatchObject({
      ConditionExpression: '(attribute_exists(pk) OR b = :a) AND contains(#h, :h)',
      ExpressionAttributeNames: { '#h': 'held' },
      ExpressionAttributeValues: { ':a': 1, ':h': 1 },
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    });
    expect(merged?.onConditionFailed?.({ held: 0 })).toBe(refused);
    expect(merged?.onConditionFailed?.({ held: 1 })).toBe(gone);
    const [plain] = withChecks([
      check('A', '1', 'contains(#h, :h) OR contains(#h, :a)', refused),
      guarded('A', '1', '(x = :a OR y = :a) AND z = :a', gone),
    ]);
    expect(plain?.action.Update?.ConditionExpression).toBe(
      '(x = :a OR y = :a) AND z = :a AND (contains(#h, :h) OR contains(#h, :a))',
    );
  });

  it('go in as their own action where the transaction has none on their item', () => {
    const held = check('C', '1', 'contains(#h, :h)', new Error('the check'));
    expect(withChecks([held, put('B', '1')])).toEqual([put('B', '1'), held]);
  });
});
