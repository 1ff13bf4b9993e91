// Vite plugin for the tests: `import text from '…' with { type: 'text' }` gives the file's text, as
// esbuild does for the Lambda bundles and infra/local/text-imports.mjs does for the local run. Vite drops
// import attributes before resolving, so the import is first marked in the importing module's source.
import { readFileSync } from 'node:fs';
import type { Plugin } from 'vite';

const TEXT_IMPORT = /(from\s*['"])([^'"]+)(['"])\s*with\s*\{\s*type:\s*['"]text['"]\s*\}/g;
const MARK = '?text-import';
/** The file's path is encoded so that vitest does not take the module for an external dependency. */
const PREFIX = '\0text-import:';

export const textImports = (): Plugin => ({
  name: 'text-imports',
  enforce: 'pre',
  transform(code, id) {
    if (!id.endsWith('.ts')) return null;
    const marked = code.replace(
      TEXT_IMPORT,
      (_, from, specifier, quote) => `${from}${specifier}${MARK}${quote}`,
    );
    return marked === code ? null : { code: marked, map: null };
  },
  async resolveId(source, importer) {
    if (!source.endsWith(MARK)) return null;
    const resolved = await this.resolve(source.slice(0, -MARK.length), importer, { skipSelf: true });
    return resolved ? `${PREFIX}${Buffer.from(resolved.id).toString('base64url')}` : null;
  },
  load(id) {
    if (!id.startsWith(PREFIX)) return null;
    const file = Buffer.from(id.slice(PREFIX.length), 'base64url').toString('utf8');
    return { code: `export default ${JSON.stringify(readFileSync(file, 'utf8'))};`, map: null };
  },
});
