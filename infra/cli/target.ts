// Which tenant the command-line tools work on: a deployed tenant's (TABLE_NAME, EXPORT_BUCKET,
// SIGNING_KEY_SECRET_ARN and AWS credentials from the environment) or, by default, the one `npm start`
// is serving with its local S3.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface Target {
  tableName: string;
  region: string;
  endpoint: string | undefined;
  tenantId: string;
  /** The tenant's export bucket, when known, and the local S3 serving it. */
  exportBucket: string | undefined;
  s3Endpoint: string | undefined;
  /** A deployed tenant's private signing key (the stack's SigningKeySecretArn output), for key rotation. */
  signingKeySecretArn: string | undefined;
  /** A Secrets Manager other than AWS's, as DYNAMODB_ENDPOINT is for DynamoDB. */
  secretsManagerEndpoint: string | undefined;
  /** Where the tenant's audit events are: the local run's file, or a deployed tenant's log group. */
  audit: { file: string } | { logGroup: string; endpoint: string | undefined } | undefined;
}

/** What `npm start` writes to DATA_DIR/local-run.json for the tools to find it. */
export interface LocalRunFile {
  url: string;
  dynamodbEndpoint: string;
  tableName: string;
  tenantId: string;
  s3Endpoint: string;
  exportBucket: string;
  /** The audit events of the run, one JSON line each (shared/audit/). */
  auditLogFile?: string;
}

export const DEFAULT_DATA_DIR = fileURLToPath(new URL('../../.data/dynamodb', import.meta.url));
export const LOCAL_RUN_FILE = 'local-run.json';
/** The local run's audit log, in DATA_DIR. */
export const AUDIT_LOG_FILE = 'audit.log';

export const localRunFile = (dataDir: string) => join(dataDir, LOCAL_RUN_FILE);

export function resolveTarget(env: Record<string, string | undefined>): Target {
  if (env.TABLE_NAME) {
    return {
      tableName: env.TABLE_NAME,
      region: env.AWS_REGION ?? 'eu-west-1',
      endpoint: env.DYNAMODB_ENDPOINT,
      tenantId: env.TENANT_ID ?? env.TABLE_NAME,
      exportBucket: env.EXPORT_BUCKET,
      s3Endpoint: env.S3_ENDPOINT,
      signingKeySecretArn: env.SIGNING_KEY_SECRET_ARN,
      secretsManagerEndpoint: env.SECRETS_MANAGER_ENDPOINT,
      // The stack's AuditLogGroupName output; CLOUDWATCH_LOGS_ENDPOINT points at another CloudWatch Logs.
      audit: env.AUDIT_LOG_GROUP
        ? { logGroup: env.AUDIT_LOG_GROUP, endpoint: env.CLOUDWATCH_LOGS_ENDPOINT }
        : env.AUDIT_LOG_FILE
          ? { file: env.AUDIT_LOG_FILE }
          : undefined,
    };
  }
  const file = localRunFile(env.DATA_DIR ?? DEFAULT_DATA_DIR);
  if (!existsSync(file)) {
    throw new Error(
      'No tenant to work on: run `npm start` first, or set TABLE_NAME (with AWS_REGION and AWS credentials) for a deployed tenant.',
    );
  }
  const local = readLocalRun(file);
  return {
    tableName: local.tableName,
    region: 'eu-west-1',
    endpoint: local.dynamodbEndpoint,
    tenantId: local.tenantId,
    exportBucket: local.exportBucket,
    s3Endpoint: local.s3Endpoint,
    signingKeySecretArn: undefined,
    secretsManagerEndpoint: undefined,
    audit: { file: local.auditLogFile ?? join(dirname(file), AUDIT_LOG_FILE) },
  };
}

export function readLocalRun(file: string): LocalRunFile {
  return JSON.parse(readFileSync(file, 'utf8')) as LocalRunFile;
}

/** The local S3 endpoint when a bucket is the local run's export bucket, so tools reach it without AWS. */
export function localS3Endpoint(env: Record<string, string | undefined>, bucket: string): string | undefined {
  if (env.S3_ENDPOINT) return env.S3_ENDPOINT;
  const file = localRunFile(env.DATA_DIR ?? DEFAULT_DATA_DIR);
  if (!existsSync(file)) return undefined;
  const local = readLocalRun(file);
  return local.exportBucket === bucket ? local.s3Endpoint : undefined;
}
