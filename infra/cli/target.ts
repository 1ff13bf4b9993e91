// Which tenant table the command-line tools work on: a deployed tenant's (TABLE_NAME and AWS credentials
// from the environment) or, by default, the one `npm start` is serving.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface Target {
  tableName: string;
  region: string;
  endpoint: string | undefined;
}

export const DEFAULT_DATA_DIR = fileURLToPath(new URL('../../.data/dynamodb', import.meta.url));
const LOCAL_RUN_FILE = 'local-run.json';

export const localRunFile = (dataDir: string) => join(dataDir, LOCAL_RUN_FILE);

export function resolveTarget(env: Record<string, string | undefined>): Target {
  if (env.TABLE_NAME) {
    return {
      tableName: env.TABLE_NAME,
      region: env.AWS_REGION ?? 'eu-west-1',
      endpoint: env.DYNAMODB_ENDPOINT,
    };
  }
  const file = localRunFile(env.DATA_DIR ?? DEFAULT_DATA_DIR);
  if (!existsSync(file)) {
    throw new Error(
      'No tenant to work on: run `npm start` first, or set TABLE_NAME (with AWS_REGION and AWS credentials) for a deployed tenant.',
    );
  }
  const local = JSON.parse(readFileSync(file, 'utf8')) as { tableName: string; dynamodbEndpoint: string };
  return { tableName: local.tableName, region: 'eu-west-1', endpoint: local.dynamodbEndpoint };
}
