// The service's configuration, read from the environment once per cold start and validated, so a
// misconfigured function fails at start with a message naming the variable instead of at a request.
import { EnvReader } from './env';

export { ConfigError } from './env';

const TENANT_ID = {
  pattern: /^[a-z][a-z0-9-]{1,39}$/,
  expected: 'lower-case letters, digits and dashes, 2 to 40 long',
};
const TABLE_NAME = { min: 3, max: 255 };
/** At least 256 bits of a random key, written as text. */
const CURSOR_KEY = { min: 32, max: 256 };
const LOG_LEVELS = ['debug', 'info', 'warn', 'error', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** How often issuers re-read the newest private key and verifiers the published keys; 0 reads on every use. */
const signingKeyRefresh = (e: EnvReader) =>
  e.integer('SIGNING_KEY_REFRESH_SECONDS', { min: 0, max: 3600, fallback: 300 });
/** The longest an access token may live (ACCESS_TOKEN_TTL_SECONDS at most), whatever the tenant sets. */
export const LONGEST_ACCESS_TOKEN_SECONDS = 86_400;
const accessTokenTtl = (e: EnvReader) =>
  e.integer('ACCESS_TOKEN_TTL_SECONDS', { min: 60, max: LONGEST_ACCESS_TOKEN_SECONDS, fallback: 900 });
/**
 * The most a verifier's list of revoked sign-ins may lag the table: refused sign-ins are refused on every
 * route within this, which keeps the promise of docs/sso.md (60 seconds at most) with room to spare.
 */
export const LONGEST_REVOCATION_REFRESH_SECONDS = 30;
const region = (e: EnvReader) => e.optionalText('AWS_REGION') ?? 'eu-west-1';
const logLevel = (e: EnvReader) => e.choice('LOG_LEVEL', LOG_LEVELS, 'info');
/** Set by the local run alone: deployed, a webhook reaches public addresses only. */
const webhookLoopback = (e: EnvReader) =>
  e.choice('WEBHOOK_LOOPBACK', ['allowed', 'refused'], 'refused') === 'allowed';
const syncLag = (e: EnvReader) => e.integer('SYNC_LAG_MS', { min: 0, max: 60_000, fallback: 2000 });

export interface Config {
  tableName: string;
  tenantId: string;
  tenantName: string;
  publicBaseUrl: string;
  /** The token issuer: the base address followed by /api/sso (contract section 5). */
  issuer: string;
  /**
   * The secret that signs list cursors (HMAC-SHA-256): the same in every function of the tenant and
   * across deployments, so a cursor outlives the instance that issued it.
   */
  cursorKey: string;
  /** The audience every access token is issued for and checked against. */
  audience: string;
  accessTokenTtlSeconds: number;
  /** The tenant's refresh-token lifetime, validated here so a deployed tenant fails fast on a bad value. */
  refreshTokenTtlSeconds: number;
  /** How long a process keeps the signing keys it read before reading them again (key rotation). */
  signingKeyRefreshSeconds: number;
  /**
   * How often a verifier re-reads the revoked sign-ins and signed-out accounts: a revoked sign-in's access
   * tokens are refused on every route at most this long after; 0 reads on every person's request.
   */
  revocationRefreshSeconds: number;
  /** Where the private signing key lives: a Secrets Manager secret, or the table (the local run). */
  signingKeySecretArn: string | undefined;
  region: string;
  dynamodbEndpoint: string | undefined;
  logLevel: LogLevel;
  /**
   * How far behind the clock delta feeds stop: a write stamped earlier but committed late (or not yet
   * in the index) is still ahead of the `sync_until` a client resumes from, so it is never skipped.
   */
  syncLagMs: number;
  /** The sign-on session: how long it lives unused, and at most from the sign-in that started it. */
  sessionIdleSeconds: number;
  sessionAbsoluteSeconds: number;
  /** Accounts with admin rights must give a TOTP code (RFC 6238) after their password. */
  adminTotpRequired: boolean;
  /** The sign-in page's language when neither ui_locales nor Accept-Language names one it speaks. */
  defaultLocale: Locale;
  /** The local run's audit log file; a deployed function writes audit events to standard output. */
  auditLogFile: string | undefined;
  /** Whether requests publish their metrics (EMF lines): CloudWatch reads them; the local run leaves them out. */
  metricsEnabled: boolean;
  /**
   * The longest a process holds a client's request counts before writing them to its usage, when no
   * claim of its rate limit carries them sooner; 0 writes them with every request.
   */
  usageFlushSeconds: number;
  /** Whether webhooks may point at loopback addresses: the local run's receivers (docs/events.md). */
  webhookLoopback: boolean;
}

/** The languages the sign-in pages speak. */
export const LOCALES = ['en', 'pt'] as const;
export type Locale = (typeof LOCALES)[number];

export function parseConfig(env: Record<string, string | undefined>): Config {
  const e = new EnvReader(env);
  const publicBaseUrl = e.url('PUBLIC_BASE_URL');
  return e.done({
    tableName: e.text('TABLE_NAME', TABLE_NAME),
    tenantId: e.text('TENANT_ID', TENANT_ID),
    tenantName: e.text('TENANT_NAME'),
    publicBaseUrl,
    issuer: `${publicBaseUrl}/api/sso`,
    audience: `${publicBaseUrl}/api`,
    accessTokenTtlSeconds: accessTokenTtl(e),
    refreshTokenTtlSeconds: e.integer('REFRESH_TOKEN_TTL_SECONDS', {
      min: 60,
      max: 7_776_000,
      fallback: 2_592_000,
    }),
    signingKeyRefreshSeconds: signingKeyRefresh(e),
    revocationRefreshSeconds: e.integer('REVOCATION_REFRESH_SECONDS', {
      min: 0,
      max: LONGEST_REVOCATION_REFRESH_SECONDS,
      fallback: 20,
    }),
    /** Set in a deployed tenant: the private signing key is read from this secret, not the table. */
    signingKeySecretArn: e.optionalText('SIGNING_KEY_SECRET_ARN', {
      pattern: /^arn:aws[a-z-]*:secretsmanager:[a-z0-9-]+:\d{12}:secret:.+$/,
      expected: 'a Secrets Manager secret ARN',
    }),
    region: region(e),
    dynamodbEndpoint: e.optionalUrl('DYNAMODB_ENDPOINT'),
    logLevel: logLevel(e),
    syncLagMs: syncLag(e),
    sessionIdleSeconds: e.integer('SESSION_IDLE_SECONDS', { min: 60, max: 2_592_000, fallback: 28_800 }),
    sessionAbsoluteSeconds: e.integer('SESSION_ABSOLUTE_SECONDS', {
      min: 60,
      max: 7_776_000,
      fallback: 86_400,
    }),
    adminTotpRequired: e.choice('ADMIN_TOTP_REQUIRED', ['true', 'false'], 'false') === 'true',
    defaultLocale: e.choice('DEFAULT_LOCALE', LOCALES, 'en'),
    auditLogFile: e.optionalText('AUDIT_LOG_FILE'),
    metricsEnabled: e.choice('METRICS', ['on', 'off'], 'on') === 'on',
    cursorKey: e.text('CURSOR_KEY', CURSOR_KEY),
    usageFlushSeconds: e.integer('USAGE_FLUSH_SECONDS', { min: 0, max: 60, fallback: 10 }),
    webhookLoopback: webhookLoopback(e),
  });
}

/** A tenant's token timings, with the service's limits and defaults, for tools that reason about them. */
export type TokenTimings = Pick<Config, 'accessTokenTtlSeconds' | 'signingKeyRefreshSeconds'>;

export function parseTokenTimings(env: Record<string, string | undefined>): TokenTimings {
  const e = new EnvReader(env);
  return e.done({ accessTokenTtlSeconds: accessTokenTtl(e), signingKeyRefreshSeconds: signingKeyRefresh(e) });
}

/** The scheduled export's settings: the table it reads and the bucket it writes, nothing of the API's. */
/** What every function apart from the API's reads first: the tenant's table, where it is, and how much to log. */
interface TableSettings {
  tableName: string;
  tenantId: string;
  region: string;
  dynamodbEndpoint: string | undefined;
  logLevel: Config['logLevel'];
}

const tableSettings = (e: EnvReader): TableSettings => ({
  tableName: e.text('TABLE_NAME', TABLE_NAME),
  tenantId: e.text('TENANT_ID', TENANT_ID),
  region: region(e),
  dynamodbEndpoint: e.optionalUrl('DYNAMODB_ENDPOINT'),
  logLevel: logLevel(e),
});

export interface ExportConfig extends TableSettings {
  syncLagMs: number;
  exportBucket: string;
  s3Endpoint: string | undefined;
}

export function parseExportConfig(env: Record<string, string | undefined>): ExportConfig {
  const e = new EnvReader(env);
  return e.done({
    ...tableSettings(e),
    syncLagMs: syncLag(e),
    exportBucket: e.text('EXPORT_BUCKET', {
      pattern: /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/,
      expected: 'an S3 bucket name',
    }),
    /** A local S3 (s3rver) instead of AWS's. */
    s3Endpoint: e.optionalUrl('S3_ENDPOINT'),
  });
}

/** The change events' functions' settings (docs/events.md): the stream function's and the delivery function's. */
export interface EventsConfig extends TableSettings {
  /** The tenant's delivery queue (SQS FIFO), which the stream function fills; the local run has its own. */
  deliveryQueueUrl: string | undefined;
  /** The mean wait before a failed delivery's first retry; each next one doubles it (events/backoff.ts). */
  webhookRetryBaseMs: number;
  webhookLoopback: boolean;
}

export function parseEventsConfig(env: Record<string, string | undefined>): EventsConfig {
  const e = new EnvReader(env);
  return e.done({
    ...tableSettings(e),
    deliveryQueueUrl: e.optionalUrl('DELIVERY_QUEUE_URL'),
    webhookRetryBaseMs: e.integer('WEBHOOK_RETRY_BASE_MS', { min: 10, max: 3_600_000, fallback: 30_000 }),
    webhookLoopback: webhookLoopback(e),
  });
}
