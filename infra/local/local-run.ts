// The local run: the demo tenant's table on a running DynamoDB (DynamoDB Local, which `npm start` and
// the tests' global setup start themselves), and the API Gateway stand-in serving the Lambda handlers.
// `npm start` and the integration tests both start the service through here.
import { createHmac } from 'node:crypto';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { parseEventsConfig } from '../../shared/config';
import { createDocumentClient } from '../../shared/data/document-client';
import { SigningKeyRepository } from '../../shared/data/signing-key-repository';
import { type ResponseInspector, startLocalApi } from './api-gateway';
import { bootstrapDemoTenant, DEMO_REDIRECT_URIS } from './bootstrap';
import { startLocalEvents } from './event-delivery';
import type { DemoUser } from './seed/demo-users';

export const DEMO_TENANT = { id: 'demo', name: 'Demo School (Agrupamento de Escolas Demo)' };
export const DEMO_USER_PASSWORD = 'demo-password';
const REGION = 'eu-west-1';

export interface LocalRunOptions {
  host: string;
  port: number;
  /** The DynamoDB that holds the tenant's table. */
  dynamodbEndpoint: string;
  tableName?: string;
  demoClientSecret: string;
  /** The password of every demo account (`DEMO_USER_PASSWORD`). */
  demoUserPassword?: string | undefined;
  /** Where the demo clients may send people back after sign-in (`DEMO_REDIRECT_URIS`). */
  demoRedirectUris?: string[] | undefined;
  /** Seeds a generated district of this many students instead of the demo school (`DEMO_SIZE`). */
  districtStudents?: number | undefined;
  publicBaseUrl?: string | undefined;
  /** How far behind the clock delta feeds stop (the service's SYNC_LAG_MS); the default suits DynamoDB. */
  syncLagMs?: number | undefined;
  /** How often the service re-reads its signing keys (SIGNING_KEY_REFRESH_SECONDS); the default is 300. */
  signingKeyRefreshSeconds?: number | undefined;
  /** How often the service re-reads the revoked sign-ins (REVOCATION_REFRESH_SECONDS); the default is 20. */
  revocationRefreshSeconds?: number | undefined;
  /** How long the service holds a client's request counts before writing its usage (USAGE_FLUSH_SECONDS); the default is 10. */
  usageFlushSeconds?: number | undefined;
  /** Whether accounts with admin rights must give a TOTP code (ADMIN_TOTP_REQUIRED); false by default. */
  adminTotpRequired?: boolean | undefined;
  /** Where the handlers append their audit events (AUDIT_LOG_FILE); standard output when not given. */
  auditLogFile?: string | undefined;
  /**
   * Reads the table's stream and delivers change events to the tenant's webhooks (docs/events.md):
   * `npm start` does; a test does when it tests them.
   */
  events?: boolean | undefined;
  /** The mean wait before a failed delivery's first retry (WEBHOOK_RETRY_BASE_MS); 30 s by default, as deployed. */
  webhookRetryBaseMs?: number | undefined;
  /** Sees every response the API sends (the tests check each against the API description). */
  inspect?: ResponseInspector | undefined;
  /** Hears what happens to the table before the API is up (seeding, a seeding started over). */
  report?: ((line: string) => void) | undefined;
}

export interface LocalRun {
  url: string;
  dynamodbEndpoint: string;
  tableName: string;
  /** The key the run's list cursors are signed with (CURSOR_KEY). */
  cursorKey: string;
  seeded: boolean;
  /** The demo tenant's sign-in accounts; they share the demo password. */
  demoUsers: DemoUser[];
  /** Stops the API; the DynamoDB is left to whoever started it. */
  stop(): Promise<void>;
}

/**
 * The local run's cursor key, derived from the table's signing key, so that it is the same on every
 * restart (as a deployed tenant's is) without being kept anywhere else.
 */
async function localCursorKey(db: DynamoDBDocumentClient, tableName: string): Promise<string> {
  const signingKey = await new SigningKeyRepository(db, tableName).newestPrivateKey();
  if (!signingKey)
    throw new Error(`The table ${tableName} has no signing key to derive the cursor key from.`);
  return createHmac('sha256', JSON.stringify(signingKey))
    .update('school-api list cursors')
    .digest('base64url');
}

export async function startLocalRun(options: LocalRunOptions): Promise<LocalRun> {
  const endpoint = options.dynamodbEndpoint;
  const tableName = options.tableName ?? `school-${DEMO_TENANT.id}`;
  const db = createDocumentClient({ region: REGION, endpoint });
  const { seeded, users } = await bootstrapDemoTenant(
    db,
    tableName,
    {
      clientSecret: options.demoClientSecret,
      userPassword: options.demoUserPassword ?? DEMO_USER_PASSWORD,
      redirectUris: options.demoRedirectUris ?? DEMO_REDIRECT_URIS,
      stream: options.events === true,
      district:
        options.districtStudents === undefined
          ? undefined
          : { students: options.districtStudents, tenantId: DEMO_TENANT.id },
    },
    options.report,
  );
  const cursorKey = await localCursorKey(db, tableName).finally(() => db.destroy());
  const api = await startLocalApi({ host: options.host, port: options.port, inspect: options.inspect });
  // The handlers read their configuration from the environment on first use, as they do in Lambda.
  Object.assign(process.env, {
    TABLE_NAME: tableName,
    TENANT_ID: DEMO_TENANT.id,
    TENANT_NAME: DEMO_TENANT.name,
    CURSOR_KEY: cursorKey,
    PUBLIC_BASE_URL: options.publicBaseUrl ?? api.url,
    DYNAMODB_ENDPOINT: endpoint,
    AWS_REGION: REGION,
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    // Metrics are CloudWatch's to read (embedded metric format); locally their lines would only be noise.
    METRICS: 'off',
    // The local run's webhook receivers are on this machine; deployed, only public addresses are reached.
    WEBHOOK_LOOPBACK: 'allowed',
    ...(options.webhookRetryBaseMs === undefined
      ? {}
      : { WEBHOOK_RETRY_BASE_MS: String(options.webhookRetryBaseMs) }),
    ...(options.syncLagMs === undefined ? {} : { SYNC_LAG_MS: String(options.syncLagMs) }),
    ...(options.auditLogFile === undefined ? {} : { AUDIT_LOG_FILE: options.auditLogFile }),
    ...(options.adminTotpRequired === undefined
      ? {}
      : { ADMIN_TOTP_REQUIRED: String(options.adminTotpRequired) }),
    ...(options.signingKeyRefreshSeconds === undefined
      ? {}
      : { SIGNING_KEY_REFRESH_SECONDS: String(options.signingKeyRefreshSeconds) }),
    ...(options.revocationRefreshSeconds === undefined
      ? {}
      : { REVOCATION_REFRESH_SECONDS: String(options.revocationRefreshSeconds) }),
    ...(options.usageFlushSeconds === undefined
      ? {}
      : { USAGE_FLUSH_SECONDS: String(options.usageFlushSeconds) }),
  });
  const events = options.events
    ? await startLocalEvents(parseEventsConfig(process.env), options.report)
    : undefined;
  return {
    url: api.url,
    dynamodbEndpoint: endpoint,
    tableName,
    cursorKey,
    seeded,
    demoUsers: users,
    async stop() {
      await events?.stop();
      await api.close();
    },
  };
}
