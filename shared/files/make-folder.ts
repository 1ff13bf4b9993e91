// Makes a folder the way `mkdir -p` does, for the folders a user names (DATA_DIR, an export's --out).
// Node's own `mkdir(path, { recursive: true })` never returns where the system refuses a folder under
// one that exists by saying the folder is missing, as it does anywhere under /proc: it goes back to the
// parent, finds it there, and tries the folder again, forever. Here each missing folder is made on its
// own, so such a refusal is an error the caller reports.
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/** Makes `path` and its missing parents (with `mode`, as mkdir takes it); throws what the system refuses. */
export function makeFolder(path: string, mode?: number): void {
  const missing: string[] = [];
  for (let at = resolve(path); !existsSync(at) && dirname(at) !== at; at = dirname(at)) missing.unshift(at);
  for (const folder of missing) {
    try {
      mkdirSync(folder, { mode });
    } catch (error) {
      // Made meanwhile by someone else: as good as made here.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  // What is there already must be a folder: anything else is refused as mkdir refuses it.
  mkdirSync(path, { recursive: true, mode });
}
