// The service's configuration, read from the environment once per cold start and validated, so a
// misconfigured function fails at start with a message naming the variable instead of at a request.
import * as z from 'zod';

const EnvSchema = z.object({
  TABLE_NAME: z.string().min(3).max(255),
  TENANT_ID: z
    .string()
    .regex(/^[a-z][a-z0-9-]{1,39}$/, 'lower-case letters, digits and dashes, 2 to 40 long'),
  TENANT_NAME: z.string().min(1),
  PUBLIC_BASE_URL: z.url({ protocol: /^https?$/ }).transform((url) => url.replace(/\/+$/, '')),
  ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().min(60).max(86_400).default(900),
  REFRESH_TOKEN_TTL_SECONDS: z.coerce.number().int().min(60).max(7_776_000).default(2_592_000),
  /** How often issuers re-read the newest private key and verifiers the published keys; 0 reads on every use. */
  SIGNING_KEY_REFRESH_SECONDS: z.coerce.number().int().min(0).max(3600).default(300),
  /** Set in a deployed tenant: the private signing key is read from this secret, not the table. */
  SIGNING_KEY_SECRET_ARN: z
    .string()
    .regex(/^arn:aws[a-z-]*:secretsmanager:[a-z0-9-]+:\d{12}:secret:.+$/, 'a Secrets Manager secret ARN')
    .optional(),
  AWS_REGION: z.string().min(1).default('eu-west-1'),
  DYNAMODB_ENDPOINT: z.url().optional(),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
  SYNC_LAG_MS: z.coerce.number().int().min(0).max(60_000).default(2000),
});

export interface Config {
  tableName: string;
  tenantId: string;
  tenantName: string;
  publicBaseUrl: string;
  /** The token issuer: the base address followed by /api/sso (contract section 5). */
  issuer: string;
  /** The audience every access token is issued for and checked against. */
  audience: string;
  accessTokenTtlSeconds: number;
  /** The tenant's refresh-token lifetime, validated here so a deployed tenant fails fast on a bad value. */
  refreshTokenTtlSeconds: number;
  /** How long a process keeps the signing keys it read before reading them again (key rotation). */
  signingKeyRefreshSeconds: number;
  /** Where the private signing key lives: a Secrets Manager secret, or the table (the local run). */
  signingKeySecretArn: string | undefined;
  region: string;
  dynamodbEndpoint: string | undefined;
  logLevel: z.infer<typeof EnvSchema>['LOG_LEVEL'];
  /**
   * How far behind the clock delta feeds stop: a write stamped earlier but committed late (or not yet
   * in the index) is still ahead of the `sync_until` a client resumes from, so it is never skipped.
   */
  syncLagMs: number;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

function parseEnv<T extends z.ZodType>(schema: T, env: Record<string, string | undefined>): z.output<T> {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration: ${problems.join('; ')}`);
  }
  return parsed.data;
}

export function parseConfig(env: Record<string, string | undefined>): Config {
  const e = parseEnv(EnvSchema, env);
  return {
    tableName: e.TABLE_NAME,
    tenantId: e.TENANT_ID,
    tenantName: e.TENANT_NAME,
    publicBaseUrl: e.PUBLIC_BASE_URL,
    issuer: `${e.PUBLIC_BASE_URL}/api/sso`,
    audience: `${e.PUBLIC_BASE_URL}/api`,
    accessTokenTtlSeconds: e.ACCESS_TOKEN_TTL_SECONDS,
    refreshTokenTtlSeconds: e.REFRESH_TOKEN_TTL_SECONDS,
    signingKeyRefreshSeconds: e.SIGNING_KEY_REFRESH_SECONDS,
    signingKeySecretArn: e.SIGNING_KEY_SECRET_ARN,
    region: e.AWS_REGION,
    dynamodbEndpoint: e.DYNAMODB_ENDPOINT,
    logLevel: e.LOG_LEVEL,
    syncLagMs: e.SYNC_LAG_MS,
  };
}

/** A tenant's token timings, with the service's limits and defaults, for tools that reason about them. */
const TokenTimingsSchema = EnvSchema.pick({
  ACCESS_TOKEN_TTL_SECONDS: true,
  SIGNING_KEY_REFRESH_SECONDS: true,
});

export type TokenTimings = Pick<Config, 'accessTokenTtlSeconds' | 'signingKeyRefreshSeconds'>;

export function parseTokenTimings(env: Record<string, string | undefined>): TokenTimings {
  const e = parseEnv(TokenTimingsSchema, env);
  return {
    accessTokenTtlSeconds: e.ACCESS_TOKEN_TTL_SECONDS,
    signingKeyRefreshSeconds: e.SIGNING_KEY_REFRESH_SECONDS,
  };
}

/** The scheduled export's settings: the table it reads and the bucket it writes, nothing of the API's. */
const ExportEnvSchema = EnvSchema.pick({
  TABLE_NAME: true,
  TENANT_ID: true,
  AWS_REGION: true,
  DYNAMODB_ENDPOINT: true,
  LOG_LEVEL: true,
  SYNC_LAG_MS: true,
}).extend({
  EXPORT_BUCKET: z.string().regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'an S3 bucket name'),
  /** A local S3 (s3rver) instead of AWS's. */
  S3_ENDPOINT: z.url().optional(),
});

export interface ExportConfig {
  tableName: string;
  tenantId: string;
  region: string;
  dynamodbEndpoint: string | undefined;
  logLevel: Config['logLevel'];
  syncLagMs: number;
  exportBucket: string;
  s3Endpoint: string | undefined;
}

export function parseExportConfig(env: Record<string, string | undefined>): ExportConfig {
  const e = parseEnv(ExportEnvSchema, env);
  return {
    tableName: e.TABLE_NAME,
    tenantId: e.TENANT_ID,
    region: e.AWS_REGION,
    dynamodbEndpoint: e.DYNAMODB_ENDPOINT,
    logLevel: e.LOG_LEVEL,
    syncLagMs: e.SYNC_LAG_MS,
    exportBucket: e.EXPORT_BUCKET,
    s3Endpoint: e.S3_ENDPOINT,
  };
}
