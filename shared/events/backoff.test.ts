// The retry schedule of a failed delivery (issue "change events", part 3: backoff with jitter over about
// 24 hours; docs/events.md, "Retries").
import { describe, expect, it } from 'vitest';
import { retryDelayMs, retryMeanMs, WEBHOOK_ATTEMPTS, WEBHOOK_LONGEST_WAIT_MS } from './backoff';

const base = 30_000;
const hours = (ms: number) => ms / 3_600_000;
const schedule = (random: () => number) =>
  Array.from({ length: WEBHOOK_ATTEMPTS - 1 }, (_, i) => retryDelayMs(i + 1, base, random));

describe('retry backoff', () => {
  it('doubles from the base to the longest wait', () => {
    expect(retryMeanMs(1, base)).toBe(30_000);
    expect(retryMeanMs(2, base)).toBe(60_000);
    expect(retryMeanMs(5, base)).toBe(480_000);
    expect(retryMeanMs(WEBHOOK_ATTEMPTS, base)).toBe(WEBHOOK_LONGEST_WAIT_MS);
  });

  it('spreads every wait a quarter either way, and spans about a day in all', () => {
    const sum = (waits: number[]) => waits.reduce((a, b) => a + b, 0);
    expect(hours(sum(schedule(() => 0.5)))).toBeCloseTo(24.26, 1);
    expect(hours(sum(schedule(() => 0)))).toBeGreaterThan(18);
    expect(hours(sum(schedule(() => 0.999_999)))).toBeLessThan(30.4);
    for (let attempt = 1; attempt < WEBHOOK_ATTEMPTS; attempt++) {
      const mean = retryMeanMs(attempt, base);
      const wait = retryDelayMs(attempt, base);
      expect(wait).toBeGreaterThanOrEqual(mean * 0.75);
      expect(wait).toBeLessThanOrEqual(mean * 1.25);
    }
  });
});
