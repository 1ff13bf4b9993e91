// DATA_DIR's modes on real folders: created private, tightened when it is the run's own, refused when it
// is open to others and shared with files the run did not write, and never changed beyond the run's entries.
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DataDirOpenError, makeDataDirPrivate } from './private-data-dir';

const NAMES = ['shared-local-instance.db', 'audit.log', 's3'];
const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

const scratch = () => {
  const root = mkdtempSync(join(tmpdir(), 'private-data-dir-'));
  roots.push(root);
  return root;
};
const mode = (path: string) => (statSync(path).mode & 0o777).toString(8);
const file = (path: string, bits: number) => {
  writeFileSync(path, 'x');
  chmodSync(path, bits);
};

describe('makeDataDirPrivate', () => {
  it('creates a missing DATA_DIR 0700', () => {
    const dir = join(scratch(), 'a', 'b');
    makeDataDirPrivate(dir, NAMES);
    expect(mode(dir)).toBe('700');
    expect(readdirSync(dir)).toEqual([]);
  });

  it("tightens a DATA_DIR left open that holds only the run's entries, folders and journals included", () => {
    const dir = scratch();
    chmodSync(dir, 0o755);
    file(join(dir, 'shared-local-instance.db'), 0o644);
    file(join(dir, 'shared-local-instance.db-journal'), 0o644);
    file(join(dir, 'audit.log'), 0o666);
    mkdirSync(join(dir, 's3', 'bucket'), { recursive: true });
    chmodSync(join(dir, 's3', 'bucket'), 0o755);
    file(join(dir, 's3', 'bucket', 'object'), 0o644);
    makeDataDirPrivate(dir, NAMES);
    expect(mode(dir)).toBe('700');
    for (const name of ['shared-local-instance.db', 'shared-local-instance.db-journal', 'audit.log'])
      expect(mode(join(dir, name))).toBe('600');
    expect(mode(join(dir, 's3', 'bucket'))).toBe('700');
    expect(mode(join(dir, 's3', 'bucket', 'object'))).toBe('600');
  });

  it('refuses a DATA_DIR open to others that holds a file the run did not write, changing nothing', () => {
    const dir = scratch();
    chmodSync(dir, 0o755);
    file(join(dir, 'audit.log'), 0o644);
    file(join(dir, 'notes.txt'), 0o644);
    expect(() => makeDataDirPrivate(dir, NAMES)).toThrow(DataDirOpenError);
    expect([mode(dir), mode(join(dir, 'audit.log')), mode(join(dir, 'notes.txt'))]).toEqual([
      '755',
      '644',
      '644',
    ]);
  });

  it("in a private DATA_DIR tightens the run's entries only, and follows no link", () => {
    const dir = scratch();
    const outside = join(scratch(), 'elsewhere');
    file(outside, 0o644);
    file(join(dir, 'notes.txt'), 0o644);
    file(join(dir, 'audit.log'), 0o644);
    symlinkSync(outside, join(dir, 'shared-local-instance.db'));
    makeDataDirPrivate(dir, NAMES);
    expect(mode(join(dir, 'audit.log'))).toBe('600');
    expect(mode(join(dir, 'notes.txt'))).toBe('644');
    expect(mode(outside)).toBe('644');
  });
});
