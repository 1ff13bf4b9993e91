// Order statistics for the benchmarks: percentiles by nearest rank, and the summaries the report prints.
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] as number;
}

export const median = (values: readonly number[]) => percentile(values, 50);

export interface Latency {
  n: number;
  p50: number;
  p95: number;
}

export function latency(samples: readonly number[]): Latency {
  return { n: samples.length, p50: percentile(samples, 50), p95: percentile(samples, 95) };
}

/** The median of each field over repeated runs. */
export function medianOf(runs: readonly Latency[]): Latency {
  return {
    n: runs.reduce((total, run) => total + run.n, 0),
    p50: median(runs.map((run) => run.p50)),
    p95: median(runs.map((run) => run.p95)),
  };
}

export function round(value: number, digits = 2): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}

/** Milliseconds taken by one call. */
export async function timed(action: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await action();
  return performance.now() - start;
}
