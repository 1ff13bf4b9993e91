// DATA_DIR holds the tenant's signing keys (in DynamoDB Local's file) and the audit trail, so only its
// owner may read it: the folder is 0700 and everything the run keeps in it 0600 (its folders 0700). The
// run writes under a umask of 077, which Java inherits, so what it creates is private from the start;
// what an earlier run left wider is tightened here. A folder that is open to others and holds anything
// the run did not write (DATA_DIR=/tmp, a home folder) is refused instead: its modes are not ours to change.
import { chmodSync, lstatSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { makeFolder } from '../../shared/files/make-folder';

/** What the run creates can be read and written by its owner only. */
export const PRIVATE_UMASK = 0o077;
const PRIVATE_FOLDER = 0o700;
const PRIVATE_FILE = 0o600;

export class DataDirOpenError extends Error {
  constructor(dataDir: string, mode: number, stranger: string) {
    super(
      `DATA_DIR ${dataDir} is open to other users (mode ${mode.toString(8)}) and holds ${stranger}, which the local run did not write: set DATA_DIR to a folder of its own, or chmod 700 it.`,
    );
  }
}

/** Whether an entry of DATA_DIR is one the run writes: a name it uses, or one made from it (a journal, a draft). */
const ours = (name: string, names: readonly string[]) =>
  names.some((own) => name === own || name.startsWith(`${own}.`) || name.startsWith(`${own}-`));

function tighten(path: string) {
  const entry = lstatSync(path);
  // A link is followed by nobody here; what it points at is not the run's to change.
  if (entry.isSymbolicLink()) return;
  if (!entry.isDirectory()) {
    if ((entry.mode & 0o777) !== PRIVATE_FILE) chmodSync(path, PRIVATE_FILE);
    return;
  }
  if ((entry.mode & 0o777) !== PRIVATE_FOLDER) chmodSync(path, PRIVATE_FOLDER);
  for (const name of readdirSync(path)) tighten(join(path, name));
}

/**
 * Creates DATA_DIR 0700, or makes an existing one private: its entries named in `names` (files, or folders
 * the run keeps, tightened throughout) and, when only the run's entries are in it, the folder itself.
 */
export function makeDataDirPrivate(dataDir: string, names: readonly string[]) {
  makeFolder(dataDir, PRIVATE_FOLDER);
  const entries = readdirSync(dataDir);
  const mode = statSync(dataDir).mode & 0o777;
  if (mode !== PRIVATE_FOLDER) {
    const stranger = entries.find((name) => !ours(name, names));
    if (stranger !== undefined && (mode & 0o077) !== 0) throw new DataDirOpenError(dataDir, mode, stranger);
    chmodSync(dataDir, PRIVATE_FOLDER);
  }
  for (const name of entries) if (ours(name, names)) tighten(join(dataDir, name));
}
