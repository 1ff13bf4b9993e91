// Section 4, throughput: autocannon against the local API (`npm start`) and against the bare
// node:http server making the same DynamoDB call, for a list page and a get by id. Each run of the
// stack is paired with a run of the bare server right before or after it, for a fixed time each;
// the ratio is the median of the pairs', so other work on the machine weighs on both sides alike.
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
  /** The median over the pairs of stack rps over bare rps. */
  ratio: number;
  /** The lowest and highest ratio of a pair: how much the machine moved the figures. */
  ratioRange: [number, number];
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
  const pairRatios = (operation: 'list' | 'get') =>
    runs[operation].stack.map((run, i) => run.rps / (runs[operation].bare[i]?.rps ?? Number.NaN));
  const summary = (taken: ThroughputRun[]): ThroughputRun => ({
    rps: median(taken.map((r) => r.rps)),
    p50Ms: median(taken.map((r) => r.p50Ms)),
    p99Ms: median(taken.map((r) => r.p99Ms)),
  });
  return (['list', 'get'] as const).map((operation) => {
    const stack = summary(runs[operation].stack);
    const bare = summary(runs[operation].bare);
    const pairs = pairRatios(operation);
    const ratio = round(median(pairs), 3);
    const ratioRange: [number, number] = [round(Math.min(...pairs), 3), round(Math.max(...pairs), 3)];
    return {
      operation,
      stack,
      bare,
      ratio,
      ratioRange,
      met: ratio >= THROUGHPUT_TARGET,
      runs: runs[operation],
    };
  });
}
