import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeFolder } from './make-folder';

const root = mkdtempSync(join(tmpdir(), 'make-folder-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('makeFolder', () => {
  it('makes a folder and its missing parents, and leaves an existing one as it is', () => {
    const deep = join(root, 'a', 'b', 'c');
    makeFolder(deep, 0o700);
    expect(statSync(deep).isDirectory()).toBe(true);
    expect(statSync(join(root, 'a')).mode & 0o777).toBe(0o700);
    makeFolder(deep);
    expect(statSync(deep).isDirectory()).toBe(true);
  });

  it('refuses a path through a file, or a file where the folder would be', () => {
    const file = join(root, 'file');
    writeFileSync(file, 'x');
    expect(() => makeFolder(join(file, 'below'))).toThrow(/ENOTDIR/);
    expect(() => makeFolder(file)).toThrow(/EEXIST/);
  });

  // Node's recursive mkdir loops forever on such a path (the test would time out).
  it.runIf(process.platform === 'linux')('refuses a folder under /proc at once, naming it', () => {
    expect(() => makeFolder('/proc/school-exports/run')).toThrow(
      "ENOENT: no such file or directory, mkdir '/proc/school-exports'",
    );
  });
});
