// Section 2, per-request overhead: one page of students, and one student by id, fetched three ways
// in turns on the same DynamoDB Local: through the whole stack over HTTP, from the bare node:http
// server over HTTP, and by the bare document-client call. The bare server makes the same single call
// and answers over the same HTTP, so the stack's own overhead is its p50 over the bare server's; the
// bare call shows the HTTP hop every server adds on top of DynamoDB.
import type { HttpClient } from './http-client';
import { type Latency, latency, medianOf, round } from './stats';
import type { Workload } from './workload';

export type Operation = 'list' | 'get';

/** Held to: the stack's p50 at most this many ms over the bare server's, per operation. */
export const OVERHEAD_TARGET: Record<Operation, number> = { list: 1, get: 0.5 };

export interface Overhead {
  operation: Operation;
  stack: Latency;
  bareServer: Latency;
  bareCall: Latency;
  /** Stack p50 minus the bare server's: the stack's own work per request, which the target judges. */
  addedMs: number;
  /** Bare server p50 minus the bare call's: the HTTP hop any server adds. */
  httpHopMs: number;
  /** Stack p50 minus the bare call's: the stack's own work and the HTTP hop together. */
  overCallMs: number;
  /** The stack p50 the target allows: the bare server's plus the operation's target. */
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
  for (const [operation, calls] of Object.entries(operations) as [Operation, typeof operations.list][]) {
    const warm: Measured = { stack: [], bareServer: [], bareCall: [] };
    for (let i = 0; i < options.warmup; i++) await sampleRound(warm, calls, i);
    const runs: Record<keyof Measured, Latency[]> = { stack: [], bareServer: [], bareCall: [] };
    for (let repeat = 0; repeat < options.repeats; repeat++) {
      const samples: Measured = { stack: [], bareServer: [], bareCall: [] };
      for (let i = 0; i < options.samples; i++) await sampleRound(samples, calls, i);
      for (const way of Object.keys(runs) as (keyof Measured)[]) runs[way].push(latency(samples[way]));
    }
    const [own, server, call] = [medianOf(runs.stack), medianOf(runs.bareServer), medianOf(runs.bareCall)];
    const allowed = server.p50 + OVERHEAD_TARGET[operation];
    results.push({
      operation,
      stack: rounded(own),
      bareServer: rounded(server),
      bareCall: rounded(call),
      addedMs: round(own.p50 - server.p50),
      httpHopMs: round(server.p50 - call.p50),
      overCallMs: round(own.p50 - call.p50),
      allowedP50Ms: round(allowed),
      met: own.p50 <= allowed,
    });
  }
  return results;
}

const rounded = (l: Latency): Latency => ({ n: l.n, p50: round(l.p50), p95: round(l.p95) });
