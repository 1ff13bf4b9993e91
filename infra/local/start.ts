// `npm start`: serves the API locally on DynamoDB Local with the demo tenant (contract section 1).
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import * as z from 'zod';
import { DEFAULT_DATA_DIR, localRunFile } from '../cli/target';
import { DEMO_CLIENT_ID } from './bootstrap';
import { JavaMissingError } from './dynamodb-local';
import { startLocalRun } from './local-run';

const Settings = z.object({
  PORT: z.coerce.number().int().min(0).max(65_535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default(DEFAULT_DATA_DIR),
  DYNAMODB_ENDPOINT: z.url().optional(),
  DEMO_CLIENT_SECRET: z.string().min(1).default('demo-secret'),
  PUBLIC_BASE_URL: z.url().optional(),
});

async function main() {
  const parsed = Settings.safeParse(process.env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    console.error(`Invalid setting ${issue?.path.join('.')}: ${issue?.message}`);
    process.exit(2);
  }
  const settings = parsed.data;
  process.env.LOG_LEVEL ??= 'info';
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  const run = await startLocalRun({
    host: settings.HOST,
    port: settings.PORT,
    dataDir: settings.DYNAMODB_ENDPOINT ? undefined : settings.DATA_DIR,
    dynamodbEndpoint: settings.DYNAMODB_ENDPOINT,
    demoClientSecret: settings.DEMO_CLIENT_SECRET,
    publicBaseUrl: settings.PUBLIC_BASE_URL,
  });
  // The command-line tools (import, admin) find the running tenant here.
  const runFile = localRunFile(settings.DATA_DIR);
  mkdirSync(settings.DATA_DIR, { recursive: true });
  writeFileSync(
    runFile,
    JSON.stringify({ url: run.url, dynamodbEndpoint: run.dynamodbEndpoint, tableName: run.tableName }),
  );
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.error(`${signal}: stopping the API and DynamoDB Local`);
    rmSync(runFile, { force: true });
    await run.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
  console.log(
    `School API ready at ${run.url} (tenant demo${run.seeded ? ', demo data seeded' : ''}); demo client id ${DEMO_CLIENT_ID}, secret ${settings.DEMO_CLIENT_SECRET}`,
  );
}

main().catch((error: unknown) => {
  if (error instanceof JavaMissingError) {
    console.error(error.message);
  } else {
    console.error('The local run failed to start:', error instanceof Error ? error.message : error);
  }
  process.exit(1);
});
