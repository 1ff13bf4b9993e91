// What the figures were measured on, printed at the top of the report: results from different
// machines are not comparable, ratios measured side by side in one run mostly are.
import { cpus, loadavg, release, totalmem } from 'node:os';

export interface Machine {
  date: string;
  cpu: string;
  cores: number;
  memoryGiB: number;
  node: string;
  os: string;
  /** The 1-minute load average when the run started: other work on the machine shows here. */
  loadAtStart: number;
}

const round1 = (value: number) => Math.round(value * 10) / 10;

/** The 1-minute load average now. */
export const currentLoad = () => round1(loadavg()[0] ?? 0);

export function describeMachine(): Machine {
  const cores = cpus();
  return {
    date: new Date().toISOString(),
    cpu: cores[0]?.model.trim() ?? 'unknown',
    cores: cores.length,
    memoryGiB: round1(totalmem() / 1024 ** 3),
    node: process.version,
    os: `${process.platform} ${release()}`,
    loadAtStart: round1(loadavg()[0] ?? 0),
  };
}
