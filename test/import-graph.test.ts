// The import graph of the service's own code, as esbuild resolves it for a bundle (type-only imports
// erased, as they are at run time): every module of shared/, functions/ and infra/ is an entry point,
// and the metafile lists what each imports. No module reaches itself through its imports, and the HTTP
// kernel (shared/http/) imports nothing of the product: it is a leaf that the product's modules use.
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { build } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');

/** Every module of these folders but the tests. */
const modulesOf = (folder: string) =>
  readdirSync(join(root, folder), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts') && !file.endsWith('.d.ts'))
    .map((file) => join(folder, file));

/** Each module of the service, by its path from the repository's root, and the modules it imports. */
let graph: Map<string, string[]>;

beforeAll(async () => {
  const { metafile } = await build({
    absWorkingDir: root,
    entryPoints: ['shared', 'functions', 'infra'].flatMap(modulesOf),
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    outdir: 'import-graph',
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  graph = new Map(
    Object.entries(metafile.inputs)
      .filter(([path]) => !path.includes('node_modules'))
      .map(([path, input]) => [
        relative(root, join(root, path)),
        input.imports
          .filter((i) => !i.external && !i.path.includes('node_modules'))
          .map((i) => relative(root, join(root, i.path))),
      ]),
  );
});

/** The cycles of the graph: each strongly connected set of modules larger than one (Tarjan's). */
function cycles(edges: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node) as number);
    stack.push(node);
    onStack.add(node);
    for (const next of edges.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node) as number, low.get(next) as number));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node) as number, index.get(next) as number));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop() as string;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1 || (edges.get(node) ?? []).includes(node)) found.push(component.sort());
  };
  for (const node of edges.keys()) if (!index.has(node)) visit(node);
  return found;
}

describe('the import graph', () => {
  it('holds every module of the service', () => {
    expect(graph.size).toBeGreaterThan(400);
    expect(graph.get('functions/results/grade.ts')).toContain('shared/records/line-item-results.ts');
  });

  it('has no import circle', () => {
    expect(cycles(graph)).toEqual([]);
  });

  it('finds a circle where there is one', () => {
    const edges = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a', 'd']],
      ['d', []],
    ]);
    expect(cycles(edges)).toEqual([['a', 'b', 'c']]);
  });

  it('keeps the HTTP kernel (shared/http/) a leaf: it imports only itself', () => {
    const kernel = [...graph].filter(([path]) => path.startsWith('shared/http/'));
    expect(kernel.length).toBeGreaterThan(5);
    for (const [path, imports] of kernel) {
      expect(
        imports.filter((i) => !i.startsWith('shared/http/')),
        path,
      ).toEqual([]);
    }
  });
});
