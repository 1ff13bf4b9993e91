// Node module hooks for the local run: `import text from '…' with { type: 'text' }` gives the file's
// text, as esbuild does when it bundles a handler for Lambda (Node has no text imports of its own).
// Plain JavaScript, so that it loads in any Node process, with or without a TypeScript loader.
import { readFile } from 'node:fs/promises';

/** @type {import('node:module').LoadHook} */
export async function load(url, context, nextLoad) {
  if (context.importAttributes.type !== 'text') return nextLoad(url, context);
  const text = await readFile(new URL(url), 'utf8');
  return { format: 'module', source: `export default ${JSON.stringify(text)};`, shortCircuit: true };
}
