// Section 4, throughput: autocannon against the local API (`npm start`) and against the bare
// node:http server making the same DynamoDB call, for a list page and a get by id. The four loads
// take turns and each runs for a fixed time, repeated, and the medians are reported.
import autocannon from 'autocannon';
import { median, round } from './stats';
import type { Workload } from './workload';

/** Held to: the stack serves at least this share of the bare server's requests per second. */
export const THROUGHPUT_TARGET = 0.85;

export interface ThroughputRun {
  rps: number;
  p50Ms: number;
  p99Ms: number;
}

export interface Throughput {
  operation: 'list' | 'get';
  stack: ThroughputRun;
  bare: ThroughputRun;
  /** stack rps over bare rps. */
  ratio: number;
  met: boolean;
  runs: { stack: ThroughputRun[]; bare: ThroughputRun[] };
}

export interface LoadOptions {
  connections: number;
  seconds: number;
  repeats: number;
}

async function load(
  url: string,
  headers: Record<string, string>,
  options: LoadOptions,
): Promise<ThroughputRun> {
  const result = await autocannon({
    url,
    headers,
    connections: options.connections,
    duration: options.seconds,
  });
  const failed = result.non2xx + result.errors + result.timeouts;
  if (failed > 0) throw new Error(`${url}: ${failed} of ${result.requests.sent} requests failed under load`);
  return {
    rps: round(result['2xx'] / result.duration, 1),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
  };
}

export async function measureThroughput(
  work: Workload,
  urls: { stack: string; bare: string },
  options: LoadOptions,
): Promise<Throughput[]> {
  const targets = {
    list: { stack: `${urls.stack}${work.stack.list}`, bare: `${urls.bare}${work.bare.list}` },
    get: { stack: `${urls.stack}${work.stack.get}`, bare: `${urls.bare}${work.bare.get}` },
  };
  const runs = {
    list: { stack: [] as ThroughputRun[], bare: [] as ThroughputRun[] },
    get: { stack: [] as ThroughputRun[], bare: [] as ThroughputRun[] },
  };
  const warmup = { ...options, seconds: 2 };
  for (const target of Object.values(targets)) {
    await load(target.stack, work.headers, warmup);
    await load(target.bare, {}, warmup);
  }
  for (let repeat = 0; repeat < options.repeats; repeat++) {
    for (const operation of ['list', 'get'] as const) {
      // Alternating which side goes first evens out any drift of the machine within a repeat.
      const sides = repeat % 2 === 0 ? (['stack', 'bare'] as const) : (['bare', 'stack'] as const);
      for (const side of sides) {
        runs[operation][side].push(
          await load(targets[operation][side], side === 'stack' ? work.headers : {}, options),
        );
      }
    }
  }
  const summary = (taken: ThroughputRun[]): ThroughputRun => ({
    rps: median(taken.map((r) => r.rps)),
    p50Ms: median(taken.map((r) => r.p50Ms)),
    p99Ms: median(taken.map((r) => r.p99Ms)),
  });
  return (['list', 'get'] as const).map((operation) => {
    const stack = summary(runs[operation].stack);
    const bare = summary(runs[operation].bare);
    const ratio = round(stack.rps / bare.rps, 3);
    return { operation, stack, bare, ratio, met: ratio >= THROUGHPUT_TARGET, runs: runs[operation] };
  });
}
