// One local run per DATA_DIR: a second DynamoDB Local on the same files would corrupt them, and the second
// run would delete the first one's local-run.json when it stopped. The lock is a file holding the pid of
// the run that has the folder; a lock whose pid no longer runs was left by a run that was killed.
import { linkSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const LOCK_FILE = 'local-run.lock';

export class DataDirInUseError extends Error {
  constructor(dataDir: string, pid: number) {
    super(
      `DATA_DIR ${dataDir} is in use by another npm start (pid ${pid}): stop that one first, or set DATA_DIR to another folder.`,
    );
  }
}

export interface DataDirLock {
  release(): void;
}

const lockFile = (dataDir: string) => join(dataDir, LOCK_FILE);

function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function holder(lock: string): number | undefined {
  try {
    const pid = Number.parseInt(readFileSync(lock, 'utf8'), 10);
    return pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Takes DATA_DIR for this process, or throws DataDirInUseError naming the run that has it. `ours` are the
 * pids of this run's own processes: a stale lock can name one of them when pids repeat (a container
 * restarting the same command), and it is stale all the same.
 */
export function lockDataDir(dataDir: string, ours: readonly number[]): DataDirLock {
  const lock = lockFile(dataDir);
  // Linking a finished file into place creates the lock with its pid in one step, so no other start can
  // read a lock that exists but names nobody yet.
  const draft = `${lock}.${process.pid}`;
  writeFileSync(draft, `${process.pid}\n`);
  try {
    for (let attempt = 1; ; attempt++) {
      try {
        linkSync(draft, lock);
        return {
          release: () => {
            if (holder(lock) === process.pid) rmSync(lock, { force: true });
          },
        };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt === 3) throw error;
      }
      const pid = holder(lock);
      if (pid !== undefined && !ours.includes(pid) && running(pid)) throw new DataDirInUseError(dataDir, pid);
      rmSync(lock, { force: true });
    }
  } finally {
    rmSync(draft, { force: true });
  }
}
