// Runs an import's rows `concurrency` at a time (or in batches) behind a progress bar, each to its outcome.
import { inParallel } from './in-parallel';
import { progressBar } from './progress-bar';
import type { Outcome } from './upsert';

export type Tally = Record<Outcome['result'], number>;

export const emptyTally = (): Tally => ({ created: 0, updated: 0, deleted: 0, unchanged: 0, refused: 0 });

/** A progress bar counting rows, with their rate and the time left at that rate. */
export function rowProgress(total: number) {
  const started = Date.now();
  const bar = progressBar(
    'importing',
    '{percentage}% | {value}/{total} rows | {rate} rows/s | ETA {eta_formatted}',
  );
  bar.start(total, 0, { rate: '0' });
  let done = 0;
  return {
    add(rows: number) {
      done += rows;
      bar.update(done, { rate: (done / Math.max(0.001, (Date.now() - started) / 1000)).toFixed(1) });
    },
    stop: () => bar.stop(),
  };
}

export type RowProgress = ReturnType<typeof rowProgress>;

/** The outcome of every task, in the tasks' order. */
export async function runRows(tasks: (() => Promise<Outcome>)[], concurrency: number): Promise<Outcome[]> {
  const progress = rowProgress(tasks.length);
  const outcomes = await inParallel(tasks, concurrency, async (task) => {
    const outcome = await task();
    progress.add(1);
    return outcome;
  });
  progress.stop();
  return outcomes;
}

/**
 * The outcome of every row, in the rows' order, `work` taking them `size` at a time and `concurrency`
 * batches at once, each batch's rows counted on `progress` when done.
 */
export async function runBatches<T>(
  rows: readonly T[],
  size: number,
  concurrency: number,
  work: (batch: readonly T[]) => Promise<Outcome[]>,
  progress: RowProgress,
): Promise<Outcome[]> {
  const batches = Array.from({ length: Math.ceil(rows.length / size) }, (_, i) =>
    rows.slice(i * size, (i + 1) * size),
  );
  const outcomes = await inParallel(batches, concurrency, async (batch) => {
    const done = await work(batch);
    progress.add(batch.length);
    return done;
  });
  return outcomes.flat();
}

/** Counts outcomes, and lists the refused ones by line. */
export function tallyOf(lines: readonly number[], outcomes: readonly Outcome[]) {
  const tally = emptyTally();
  const refused: { line: number; reasons: string[] }[] = [];
  outcomes.forEach((outcome, i) => {
    tally[outcome.result] += 1;
    if (outcome.result === 'refused') refused.push({ line: lines[i] as number, reasons: outcome.reasons });
  });
  refused.sort((a, b) => a.line - b.line);
  return { tally, refused };
}
