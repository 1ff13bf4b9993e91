// Runs an import's rows `concurrency` at a time behind a progress bar, each to its outcome.
import { progressBar } from './progress-bar';
import type { Outcome } from './upsert';

export type Tally = Record<Outcome['result'], number>;

export const emptyTally = (): Tally => ({ created: 0, updated: 0, deleted: 0, unchanged: 0, refused: 0 });

/** The outcome of every task, in the tasks' order. */
export async function runRows(tasks: (() => Promise<Outcome>)[], concurrency: number): Promise<Outcome[]> {
  const outcomes: Outcome[] = new Array(tasks.length);
  const started = Date.now();
  const bar = progressBar(
    'importing',
    '{percentage}% | {value}/{total} rows | {rate} rows/s | ETA {eta_formatted}',
  );
  bar.start(tasks.length, 0, { rate: '0' });
  let next = 0;
  let done = 0;
  const work = async () => {
    for (let i = next++; i < tasks.length; i = next++) {
      outcomes[i] = await (tasks[i] as () => Promise<Outcome>)();
      done += 1;
      bar.update(done, { rate: (done / Math.max(0.001, (Date.now() - started) / 1000)).toFixed(1) });
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, tasks.length) }, work));
  bar.stop();
  return outcomes;
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
