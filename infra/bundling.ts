// How every handler is bundled for Lambda, shared by the CDK stack and the benchmarks so both measure
// and ship the same artefact: ESM for nodejs22.x, the AWS SDK bundled in (but for its credential chain),
// minified, with source maps.
import { fileURLToPath } from 'node:url';
import type { Route } from '../shared/route';

export const LAMBDA_NODE_TARGET = 'node22';

/** ESM bundles need `require` for the SDK's remaining CommonJS dependencies. */
const ESM_REQUIRE_BANNER =
  "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);";

const repositoryRoot = fileURLToPath(new URL('../', import.meta.url));
const credentialsModule = 'infra/lambda-credentials.ts';
const credentialChain = '@aws-sdk/credential-provider-node';

/**
 * Lambda gives a function its credentials in the environment: every bundle takes them from there
 * (infra/lambda-credentials.ts) instead of carrying the SDK's whole default chain, a third of its bytes.
 */
export const credentialsAlias = { [credentialChain]: `${repositoryRoot}${credentialsModule}` };

export const esbuildOptions = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: LAMBDA_NODE_TARGET,
  mainFields: ['module', 'main'],
  minify: true,
  sourcemap: true,
  banner: { js: ESM_REQUIRE_BANNER },
  alias: credentialsAlias,
} as const;

const functionsDir = fileURLToPath(new URL('../functions/', import.meta.url));

/** The deploy-time custom resource that creates a tenant's signing key. */
export const signingKeyEntry = fileURLToPath(new URL('./custom-resources/signing-key.ts', import.meta.url));

/** The scheduled export, run by the tenant's EventBridge rule. */
export const exportEntry = `${functionsDir}exports/run.ts`;

/** The audit forwarder, fed by the subscription on the function log group. */
export const auditForwarderEntry = `${functionsDir}audit/forward.ts`;

/** The change events' stream function, fed by the tenant table's stream (docs/events.md). */
export const eventStreamEntry = `${functionsDir}webhooks/stream.ts`;

/** The change events' delivery function, fed by the tenant's delivery queue. */
export const eventDeliveryEntry = `${functionsDir}webhooks/deliver.ts`;

/** The source file of a route's handler. */
export function handlerEntry(route: Pick<Route, 'handler'>): string {
  return `${functionsDir}${route.handler}.ts`;
}
