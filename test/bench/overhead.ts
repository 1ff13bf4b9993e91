// Section 2, per-request overhead: one page of students, and one student by id, fetched three ways
// in turns on the same DynamoDB Local: through the whole stack over HTTP, from the bare node:http
// server over HTTP, and by the bare document-client call. The bare call is the floor; the bare
// server shows how much of the difference is the HTTP hop itself.
import type { HttpClient } from './http-client';
import { type Latency, latency, medianOf, round } from './stats';
import type { Workload } from './workload';

/** Held to: the stack's p50 at most this multiple of the bare call's, or the bare p50 plus 1 ms. */
export const OVERHEAD_TARGET = { ratio: 1.2, addedMs: 1 };

export interface Overhead {
  operation: 'list' | 'get';
  stack: Latency;
  bareServer: Latency;
  bareCall: Latency;
  /** stack p50 over the bare call's p50. */
  ratio: number;
  addedP50Ms: number;
  /** The stack p50 the target allows: the larger of 1.2x and +1 ms. */
  allowedP50Ms: number;
  met: boolean;
}

type Measured = Record<'stack' | 'bareServer' | 'bareCall', number[]>;

async function sampleRound(
  samples: Measured,
  calls: Record<keyof Measured, () => Promise<unknown>>,
  turn: number,
) {
  // Rotating the order keeps any one way from always running right after another.
  const order = (['stack', 'bareServer', 'bareCall'] as const).map(
    (_, i, all) => all[(i + turn) % all.length] as keyof Measured,
  );
  for (const way of order) {
    const start = performance.now();
    await calls[way]();
    samples[way].push(performance.now() - start);
  }
}

export async function measureOverhead(
  work: Workload,
  stack: HttpClient,
  bare: HttpClient,
  options: { warmup: number; samples: number; repeats: number },
): Promise<Overhead[]> {
  const operations = {
    list: {
      stack: () => stack.send(work.stack.list, { headers: work.headers }),
      bareServer: () => bare.send(work.bare.list),
      bareCall: () => work.query(),
    },
    get: {
      stack: () => stack.send(work.stack.get, { headers: work.headers }),
      bareServer: () => bare.send(work.bare.get),
      bareCall: () => work.getItem(),
    },
  };
  const results: Overhead[] = [];
  for (const [operation, calls] of Object.entries(operations) as [
    Overhead['operation'],
    typeof operations.list,
  ][]) {
    const warm: Measured = { stack: [], bareServer: [], bareCall: [] };
    for (let i = 0; i < options.warmup; i++) await sampleRound(warm, calls, i);
    const runs: Record<keyof Measured, Latency[]> = { stack: [], bareServer: [], bareCall: [] };
    for (let repeat = 0; repeat < options.repeats; repeat++) {
      const samples: Measured = { stack: [], bareServer: [], bareCall: [] };
      for (let i = 0; i < options.samples; i++) await sampleRound(samples, calls, i);
      for (const way of Object.keys(runs) as (keyof Measured)[]) runs[way].push(latency(samples[way]));
    }
    const [own, server, call] = [medianOf(runs.stack), medianOf(runs.bareServer), medianOf(runs.bareCall)];
    const allowed = Math.max(call.p50 * OVERHEAD_TARGET.ratio, call.p50 + OVERHEAD_TARGET.addedMs);
    results.push({
      operation,
      stack: rounded(own),
      bareServer: rounded(server),
      bareCall: rounded(call),
      ratio: round(own.p50 / call.p50, 3),
      addedP50Ms: round(own.p50 - call.p50),
      allowedP50Ms: round(allowed),
      met: own.p50 <= allowed,
    });
  }
  return results;
}

const rounded = (l: Latency): Latency => ({ n: l.n, p50: round(l.p50), p95: round(l.p95) });
