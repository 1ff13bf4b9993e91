import { describe, expect, it } from 'vitest';
import { itemOf, packWrites } from './transaction-packs';
import type { Step } from './write-transaction';

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
