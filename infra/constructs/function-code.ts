// Every function's code for the stack, from one esbuild run over all of a stack's entries with the shared
// options (infra/bundling.ts): esbuild parses the shared modules once instead of once per function, and
// what the stack ships is what the bundle tests and the benchmarks build. CDK stages each function's
// folder as its asset through local bundling, so a synth that skips bundling (`aws:cdk:bundling-stacks`)
// builds nothing.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AssetHashType, DockerImage } from 'aws-cdk-lib';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { buildSync } from 'esbuild';
import { functionEntries } from '../bundles';
import { esbuildOptions } from '../bundling';

/** The file Lambda loads, `index.handler` in a function's configuration. */
export const FUNCTION_HANDLER = 'index.handler';

const repositoryRoot = fileURLToPath(new URL('../../', import.meta.url));

let bundlesDirectory: string | undefined;

/** Builds every function once a process, each into `<dir>/<name>/index.mjs` with its source map. */
function bundledFunctions(): string {
  if (!bundlesDirectory) {
    const directory = mkdtempSync(join(tmpdir(), 'school-api-bundles-'));
    buildSync({
      ...esbuildOptions,
      mainFields: [...esbuildOptions.mainFields],
      entryPoints: Object.fromEntries(functionEntries.map(({ name, entry }) => [`${name}/index`, entry])),
      outdir: directory,
      outExtension: { '.js': '.mjs' },
      logLevel: 'warning',
    });
    bundlesDirectory = directory;
    // The assets are copies; the synth's own folder is all that outlives it.
    process.once('exit', () => rmSync(directory, { recursive: true, force: true }));
  }
  return bundlesDirectory;
}

/** The code of the function whose handler module is `entry`, one of `functionEntries`. */
export function functionCode(entry: string): lambda.Code {
  const name = functionEntries.find((candidate) => candidate.entry === entry)?.name;
  if (!name) throw new Error(`${entry} is not one of the stack's function entries (infra/bundles.ts)`);
  return lambda.Code.fromAsset(repositoryRoot, {
    assetHashType: AssetHashType.OUTPUT,
    bundling: {
      // Local bundling always answers, so CDK never starts this image; the API requires one.
      image: DockerImage.fromRegistry('public.ecr.aws/sam/build-nodejs22.x'),
      // Tells the functions apart in CDK's cache of staged assets, which keys on these options.
      command: [name],
      local: {
        tryBundle(outputDir) {
          cpSync(join(bundledFunctions(), name), outputDir, { recursive: true });
          return true;
        },
      },
    },
  });
}
