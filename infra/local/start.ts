// `npm start`: serves the API locally on DynamoDB Local with the demo tenant (contract section 1), and
// runs the tenant's export schedule into a local S3 beside it.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as z from 'zod';
import { EXPORTS_PREFIX } from '../../shared/exports/manifest';
import { scheduleProblem } from '../../shared/exports/schedule';
import { DEFAULT_DATA_DIR, type LocalRunFile, localRunFile } from '../cli/target';
import { DEMO_APP_ID, DEMO_CLIENT_ID, DEMO_REDIRECT_URIS } from './bootstrap';
import { JavaMissingError } from './dynamodb-local';
import { type ExportSchedule, startExportSchedule } from './export-schedule';
import { DEMO_TENANT, DEMO_USER_PASSWORD, type LocalRun, startLocalRun } from './local-run';
import { type S3Local, startS3Local } from './s3-local';

const Settings = z.object({
  PORT: z.coerce.number().int().min(0).max(65_535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default(DEFAULT_DATA_DIR),
  DYNAMODB_ENDPOINT: z.url().optional(),
  DEMO_CLIENT_SECRET: z.string().min(1).default('demo-secret'),
  DEMO_USER_PASSWORD: z.string().min(8).default(DEMO_USER_PASSWORD),
  /** Space-separated redirect URIs the demo clients accept in the code flow. */
  DEMO_REDIRECT_URIS: z
    .string()
    .default(DEMO_REDIRECT_URIS.join(' '))
    .transform((value) => value.split(/\s+/).filter(Boolean))
    .pipe(z.array(z.url()).min(1)),
  PUBLIC_BASE_URL: z.url().optional(),
  /** The demo tenant's export schedule (crontab, UTC), as a deployed tenant's `exports.schedule`; `off` for none. */
  EXPORT_SCHEDULE: z
    .string()
    .default('0 2 * * *')
    .refine((pattern) => pattern === 'off' || scheduleProblem(pattern) === undefined, {
      error: (issue) => `${scheduleProblem(String(issue.input))} (or off)`,
    }),
});

const EXPORT_BUCKET = `school-${DEMO_TENANT.id}-exports`;

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
  const run: LocalRun = await startLocalRun({
    host: settings.HOST,
    port: settings.PORT,
    dataDir: settings.DYNAMODB_ENDPOINT ? undefined : settings.DATA_DIR,
    dynamodbEndpoint: settings.DYNAMODB_ENDPOINT,
    demoClientSecret: settings.DEMO_CLIENT_SECRET,
    demoUserPassword: settings.DEMO_USER_PASSWORD,
    demoRedirectUris: settings.DEMO_REDIRECT_URIS,
    publicBaseUrl: settings.PUBLIC_BASE_URL,
  });
  let s3: S3Local | undefined;
  let schedule: ExportSchedule | undefined;
  try {
    s3 = await startS3Local({ directory: join(settings.DATA_DIR, 's3'), bucket: EXPORT_BUCKET });
  } catch (error) {
    await run.stop();
    throw error;
  }
  // The export handler reads these as the deployed function does; startLocalRun set the table's.
  Object.assign(process.env, { EXPORT_BUCKET, S3_ENDPOINT: s3.endpoint });
  if (settings.EXPORT_SCHEDULE !== 'off') schedule = startExportSchedule(settings.EXPORT_SCHEDULE);
  // The command-line tools (import, export, verify-export) find the running tenant here.
  const runFile = localRunFile(settings.DATA_DIR);
  mkdirSync(settings.DATA_DIR, { recursive: true });
  const local: LocalRunFile = {
    url: run.url,
    dynamodbEndpoint: run.dynamodbEndpoint,
    tableName: run.tableName,
    tenantId: DEMO_TENANT.id,
    s3Endpoint: s3.endpoint,
    exportBucket: EXPORT_BUCKET,
  };
  writeFileSync(runFile, JSON.stringify(local));
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.error(`${signal}: stopping the API, the local S3 and DynamoDB Local`);
    rmSync(runFile, { force: true });
    schedule?.stop();
    await s3?.stop();
    await run.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
  // The ready line comes first: clients wait for the first line with an address, and it must be the API's.
  console.log(
    `School API ready at ${run.url} (tenant demo${run.seeded ? ', demo data seeded' : ''}); demo client id ${DEMO_CLIENT_ID}, secret ${settings.DEMO_CLIENT_SECRET}`,
  );
  console.log(
    `Sign-in: ${run.url}/api/sso/authorize with client ${DEMO_CLIENT_ID} or the public client ${DEMO_APP_ID}, redirect URIs ${settings.DEMO_REDIRECT_URIS.join(' ')}; demo accounts ${run.demoUsers.map((u) => u.username).join(', ')}, password ${settings.DEMO_USER_PASSWORD}`,
  );
  const next = schedule?.next();
  console.log(
    `Exports: ${schedule ? `${settings.EXPORT_SCHEDULE} UTC, next ${next?.toISOString()}` : 'schedule off'}, to s3://${EXPORT_BUCKET}/${EXPORTS_PREFIX} on the local S3 at ${s3.endpoint} (npm run export runs one now)`,
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
