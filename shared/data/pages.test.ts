// How a skip finds where its page starts: from the nearer end of a range whose size is known.
import { describe, expect, it } from 'vitest';
import { offsetWalk } from './pages';

describe('offsetWalk', () => {
  it('reads from the front while the key is in the first half, or the size is not known', () => {
    expect(offsetWalk(1, 100)).toEqual({ forward: true, steps: 1 });
    expect(offsetWalk(50, 100)).toEqual({ forward: true, steps: 50 });
    expect(offsetWalk(51, 101)).toEqual({ forward: true, steps: 51 });
    expect(offsetWalk(90, undefined)).toEqual({ forward: true, steps: 90 });
  });

  it('reads from the back past the middle, the last key being one step from there', () => {
    expect(offsetWalk(51, 100)).toEqual({ forward: false, steps: 50 });
    expect(offsetWalk(99, 100)).toEqual({ forward: false, steps: 2 });
    expect(offsetWalk(100, 100)).toEqual({ forward: false, steps: 1 });
  });

  it('reads nothing past the end', () => {
    expect(offsetWalk(101, 100)).toBeUndefined();
    expect(offsetWalk(1, 0)).toBeUndefined();
  });

  it('never reads more than half the range and one', () => {
    for (let size = 1; size <= 40; size += 1) {
      for (let skip = 1; skip <= size; skip += 1) {
        const walk = offsetWalk(skip, size);
        expect(walk?.steps).toBeLessThanOrEqual(Math.ceil(size / 2) + 1);
        // The key reached is the same whichever end the walk starts from.
        expect(walk?.forward ? walk.steps : size - (walk?.steps ?? 0) + 1).toBe(skip);
      }
    }
  });
});
