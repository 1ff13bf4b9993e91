// What the figures were measured on, printed at the top of the report: results from different
// machines are not comparable, ratios measured side by side in one run mostly are.
import { cpus, release, totalmem } from 'node:os';

export interface Machine {
  date: string;
  cpu: string;
  cores: number;
  memoryGiB: number;
  node: string;
  os: string;
}

export function describeMachine(): Machine {
  const cores = cpus();
  return {
    date: new Date().toISOString(),
    cpu: cores[0]?.model.trim() ?? 'unknown',
    cores: cores.length,
    memoryGiB: Math.round((totalmem() / 1024 ** 3) * 10) / 10,
    node: process.version,
    os: `${process.platform} ${release()}`,
  };
}
