// Which folders are runs, and where the delta of the run after one starts (docs/exports.md).
import { describe, expect, it } from 'vitest';
import { isRunId, type Manifest, nextDeltaSince, runIdAt } from './manifest';

const run = (fields: Partial<Manifest>) =>
  ({ started_at: '2026-10-01T02:00:01.318Z', ...fields }) as Manifest;

describe('runs and their deltas', () => {
  it('knows a run by its id, as runIdAt writes it', () => {
    expect(isRunId(runIdAt(new Date('2026-10-01T02:00:00Z')))).toBe(true);
    for (const name of ['late', 'failing-run', '2026-10-01T02:00:00Z', '2026-10-01'])
      expect(isRunId(name), name).toBe(false);
  });

  it("starts the next delta at the run's until, or the sync lag before it began", () => {
    expect(nextDeltaSince(run({}), 2000)).toBe('2026-10-01T01:59:59.318Z');
    const delta = { until: '2026-10-01T01:59:59.000Z' } as Manifest['oneroster_delta'];
    expect(nextDeltaSince(run({ oneroster_delta: delta }), 2000)).toBe('2026-10-01T01:59:59.000Z');
  });
});
