// A project's command-line tool (`infra/cli/<script>.ts`) as an operator runs it, in a child process on
// a test table of DynamoDB Local, with the demo tenant's settings.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const tsx = join(root, 'node_modules/tsx/dist/cli.mjs');

export function runCliOn(tableName: string, script: string, ...args: string[]) {
  const result = spawnSync(process.execPath, [tsx, script, ...args], {
    cwd: root,
    encoding: 'utf8',
    env: {
      ...process.env,
      TABLE_NAME: tableName,
      TENANT_ID: 'demo',
      DYNAMODB_ENDPOINT: inject('dynamodbEndpoint'),
      AWS_REGION: 'eu-west-1',
      LOG_LEVEL: 'silent',
    },
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}
