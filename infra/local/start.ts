// `npm start`: serves the API locally on DynamoDB Local with the demo tenant (contract section 1), and
// runs the tenant's export schedule into a local S3 beside it. It has DATA_DIR to itself and keeps it to
// its owner, listens on loopback only (the API on a wider HOST if told to), reports a busy port before
// anything slow starts, and stops with whatever started it, however that one ends.
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as z from 'zod';
import { EXPORTS_PREFIX } from '../../shared/exports/manifest';
import { scheduleProblem } from '../../shared/exports/schedule';
import {
  AUDIT_LOG_FILE,
  DEFAULT_DATA_DIR,
  LOCAL_RUN_FILE,
  type LocalRunFile,
  localRunFile,
} from '../cli/target';
import { DEMO_APP_ID, DEMO_CLIENT_ID, DEMO_REDIRECT_URIS } from './bootstrap';
import { DataDirInUseError, LOCK_FILE, lockDataDir } from './data-dir-lock';
import {
  DYNAMODB_LOCAL_FILE,
  type DynamoDbLocal,
  JavaMissingError,
  startDynamoDbLocal,
} from './dynamodb-local';
import { type ExportSchedule, startExportSchedule } from './export-schedule';
import { DEMO_TENANT, DEMO_USER_PASSWORD, type LocalRun, startLocalRun } from './local-run';
import { checkPortFree, PortInUseError } from './port-check';
import { DataDirOpenError, makeDataDirPrivate, PRIVATE_UMASK } from './private-data-dir';
import { type S3Local, startS3Local } from './s3-local';
import { DISTRICT_STUDENTS } from './seed/district-seed';
import { watchStarter } from './starter-watch';

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
  /** What the first start seeds: the demo school, a generated district, or a district of this many students. */
  DEMO_SIZE: z
    .string()
    .default('school')
    .transform((value) => (value === 'district' ? String(DISTRICT_STUDENTS) : value))
    .refine((value) => value === 'school' || /^[1-9]\d{0,5}$/.test(value), {
      error: 'must be school, district or a number of students (1 to 999999)',
    })
    .transform((value) => (value === 'school' ? undefined : Number(value))),
  /** The mean wait before a failed webhook delivery's first retry, in ms (docs/events.md); deployed it is 30 s. */
  WEBHOOK_RETRY_BASE_MS: z.coerce.number().int().min(10).max(3_600_000).default(2_000),
  /** The demo tenant's export schedule (crontab, UTC), as a deployed tenant's `exports.schedule`; `off` for none. */
  EXPORT_SCHEDULE: z
    .string()
    .default('0 2 * * *')
    .refine((pattern) => pattern === 'off' || scheduleProblem(pattern) === undefined, {
      error: (issue) => `${scheduleProblem(String(issue.input))} (or off)`,
    }),
});

const parsed = Settings.safeParse(process.env);
if (!parsed.success) {
  const issue = parsed.error.issues[0];
  console.error(`Invalid setting ${issue?.path.join('.')}: ${issue?.message}`);
  process.exit(2);
}
const settings = parsed.data;

const EXPORT_BUCKET = `school-${DEMO_TENANT.id}-exports`;
/** The local S3's folder in DATA_DIR. */
const S3_FOLDER = 's3';
/** Everything the run keeps in DATA_DIR. */
const DATA_DIR_ENTRIES = [DYNAMODB_LOCAL_FILE, AUDIT_LOG_FILE, LOCAL_RUN_FILE, LOCK_FILE, S3_FOLDER];
/** The launchers between the starter and this process (tsx, npm's shell) name this file. */
const ENTRY = 'infra/local/start.ts';

/** What has started so far: whenever the run ends, these stop, the API first and DynamoDB Local last. */
const started: {
  database?: DynamoDbLocal;
  run?: LocalRun;
  s3?: S3Local;
  schedule?: ExportSchedule;
} = {};
let stopping = false;

async function stopStarted() {
  started.schedule?.stop();
  await started.run?.stop();
  await started.s3?.stop();
  await started.database?.stop();
}

function stop(reason: string) {
  if (stopping) return;
  stopping = true;
  console.error(`${reason}: stopping the API, the local S3 and DynamoDB Local`);
  void stopStarted().finally(() => process.exit(0));
}

async function main() {
  process.env.LOG_LEVEL ??= 'info';
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  const starter = watchStarter(ENTRY, (pid) =>
    stop(`The process that started this run has gone (pid ${pid}, or one between it and the server)`),
  );
  // Before anything is written: DynamoDB Local's file and the local S3's objects are created under it too.
  process.umask(PRIVATE_UMASK);
  makeDataDirPrivate(settings.DATA_DIR, DATA_DIR_ENTRIES);
  const lock = lockDataDir(settings.DATA_DIR, starter.pids);
  // The command-line tools (import, export, verify-export) find the running tenant here.
  const runFile = localRunFile(settings.DATA_DIR);
  // On every way out, a failed start included; DynamoDB Local has stopped by then, or its watchdog stops it.
  process.on('exit', () => {
    rmSync(runFile, { force: true });
    lock.release();
  });
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  await checkPortFree(settings.HOST, settings.PORT);

  if (!settings.DYNAMODB_ENDPOINT) {
    started.database = await startDynamoDbLocal({ dataDir: settings.DATA_DIR });
  }
  const run = await startLocalRun({
    host: settings.HOST,
    port: settings.PORT,
    dynamodbEndpoint: settings.DYNAMODB_ENDPOINT ?? (started.database as DynamoDbLocal).endpoint,
    demoClientSecret: settings.DEMO_CLIENT_SECRET,
    demoUserPassword: settings.DEMO_USER_PASSWORD,
    demoRedirectUris: settings.DEMO_REDIRECT_URIS,
    districtStudents: settings.DEMO_SIZE,
    publicBaseUrl: settings.PUBLIC_BASE_URL,
    auditLogFile: join(settings.DATA_DIR, AUDIT_LOG_FILE),
    events: true,
    webhookRetryBaseMs: settings.WEBHOOK_RETRY_BASE_MS,
    report: (line) => console.error(line),
  });
  started.run = run;
  const s3 = await startS3Local({ directory: join(settings.DATA_DIR, S3_FOLDER), bucket: EXPORT_BUCKET });
  started.s3 = s3;
  // The export handler reads these as the deployed function does; startLocalRun set the table's.
  Object.assign(process.env, { EXPORT_BUCKET, S3_ENDPOINT: s3.endpoint });
  const schedule =
    settings.EXPORT_SCHEDULE === 'off' ? undefined : startExportSchedule(settings.EXPORT_SCHEDULE);
  started.schedule = schedule;
  const local: LocalRunFile = {
    url: run.url,
    dynamodbEndpoint: run.dynamodbEndpoint,
    tableName: run.tableName,
    tenantId: DEMO_TENANT.id,
    s3Endpoint: s3.endpoint,
    exportBucket: EXPORT_BUCKET,
    auditLogFile: join(settings.DATA_DIR, AUDIT_LOG_FILE),
  };
  writeFileSync(runFile, JSON.stringify(local));
  // The ready line comes first: clients wait for the first line with an address, and it must be the API's.
  console.log(
    `School API ready at ${run.url} (tenant demo${run.seeded ? ', demo data seeded' : ''}); demo client id ${DEMO_CLIENT_ID}, secret ${settings.DEMO_CLIENT_SECRET}`,
  );
  console.log(
    `Sign-in: ${run.url}/api/sso/authorize with client ${DEMO_CLIENT_ID} or the public client ${DEMO_APP_ID}, redirect URIs ${settings.DEMO_REDIRECT_URIS.join(' ')}; ${run.demoUsers.length > 0 ? `demo accounts ${run.demoUsers.map((u) => u.username).join(', ')}, password ${settings.DEMO_USER_PASSWORD}` : 'no demo accounts in a generated district'}`,
  );
  const next = schedule?.next();
  console.log(
    `Exports: ${schedule ? `${settings.EXPORT_SCHEDULE} UTC, next ${next?.toISOString()}` : 'schedule off'}, to s3://${EXPORT_BUCKET}/${EXPORTS_PREFIX} on the local S3 at ${s3.endpoint} (npm run export runs one now)`,
  );
}

main().catch((error: unknown) => {
  // A stop on a signal fails whatever was still starting; the stop has said what happened.
  if (stopping) return;
  stopping = true;
  if (
    error instanceof JavaMissingError ||
    error instanceof DataDirInUseError ||
    error instanceof DataDirOpenError ||
    error instanceof PortInUseError
  ) {
    console.error(error.message);
  } else {
    const message = error instanceof Error ? error.message : String(error);
    console.error(`The local run on DATA_DIR ${settings.DATA_DIR} failed to start: ${message}`);
  }
  void stopStarted().finally(() => process.exit(1));
});
