// Starts the local run for one test file: its own seeded table in the shared DynamoDB Local, served
// over real HTTP by the API Gateway stand-in. Gives the tests a token helper and direct repositories
// for arranging data, and checks every response the file receives against the API description.
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import { expect, inject } from 'vitest';
import { DEMO_CLIENT_ID } from '../../infra/local/bootstrap';
import { DEMO_TENANT, startLocalRun } from '../../infra/local/local-run';
import { createDocumentClient } from '../../shared/data/document-client';
import { RecordRepository } from '../../shared/data/record-repository';
import { SigningKeyRepository } from '../../shared/data/signing-key-repository';
import { UserRepository } from '../../shared/data/user-repository';
import { openApiDocument } from '../../shared/openapi/document';
import { copyTemplateTable, DEMO_SECRET } from './demo-table';
import { ResponseValidator } from './openapi-validator';
import { personTokens } from './person-token';

export { DEMO_SECRET };
/** Delta feeds lag the clock by this much in tests: long enough to be real, short enough to wait out. */
export const TEST_SYNC_LAG_MS = 200;
export const waitForSyncLag = () => new Promise((resolve) => setTimeout(resolve, TEST_SYNC_LAG_MS + 50));

export interface TestApiOptions {
  /** The service's SIGNING_KEY_REFRESH_SECONDS, for tests of key rotation; the default otherwise. */
  signingKeyRefreshSeconds?: number;
  /** The service's REVOCATION_REFRESH_SECONDS, for tests of revoked sign-ins; the default otherwise. */
  revocationRefreshSeconds?: number;
  /** The service's USAGE_FLUSH_SECONDS, for tests of a client's usage; the default otherwise. */
  usageFlushSeconds?: number;
  /** Delivers change events to webhooks, first retrying after this many ms (WEBHOOK_RETRY_BASE_MS). */
  webhookRetryBaseMs?: number;
  /** The service's ADMIN_TOTP_REQUIRED, for tests of the second factor accounts with admin rights need. */
  adminTotpRequired?: boolean;
}

export async function startTestApi(options: TestApiOptions = {}) {
  const endpoint = inject('dynamodbEndpoint');
  const tableName = `school-test-${randomUUID().slice(0, 8)}`;
  // Each test API's audit events, in a file of its own, as `npm start` keeps them under DATA_DIR.
  const auditLogFile = join(tmpdir(), `${tableName}-audit.log`);
  // The servers entry is all that depends on the address, and responses are checked without it.
  const validator = new ResponseValidator(openApiDocument('http://127.0.0.1'));
  const violations: string[] = [];
  let responsesChecked = 0;
  const db = createDocumentClient({ region: 'eu-west-1', endpoint });
  const events = options.webhookRetryBaseMs !== undefined;
  await copyTemplateTable(db, tableName, { stream: events });
  const run = await startLocalRun({
    host: '127.0.0.1',
    port: 0,
    dynamodbEndpoint: endpoint,
    tableName,
    demoClientSecret: DEMO_SECRET,
    syncLagMs: TEST_SYNC_LAG_MS,
    signingKeyRefreshSeconds: options.signingKeyRefreshSeconds,
    revocationRefreshSeconds: options.revocationRefreshSeconds,
    usageFlushSeconds: options.usageFlushSeconds,
    adminTotpRequired: options.adminTotpRequired,
    events,
    webhookRetryBaseMs: options.webhookRetryBaseMs,
    auditLogFile,
    inspect: (exchange) => {
      responsesChecked++;
      try {
        violations.push(...validator.check(exchange));
      } catch (error) {
        violations.push(`${exchange.method} ${exchange.path}: could not be checked: ${error}`);
      }
    },
  });
  const tokens = new Map<string, string>();

  /** An access token for the demo client, optionally narrowed to some scopes. */
  const token = async (scope?: string): Promise<string> => {
    const cached = tokens.get(scope ?? '');
    if (cached) return cached;
    const response = await fetch(`${run.url}/api/sso/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: DEMO_CLIENT_ID,
        client_secret: DEMO_SECRET,
        ...(scope ? { scope } : {}),
      }),
    });
    if (response.status !== 200)
      throw new Error(`token request failed: ${response.status} ${await response.text()}`);
    const { access_token } = (await response.json()) as { access_token: string };
    tokens.set(scope ?? '', access_token);
    return access_token;
  };

  /** GET with the demo client's full token unless told otherwise. */
  const get = async (
    path: string,
    options: { token?: string | null; headers?: Record<string, string> } = {},
  ) => {
    const bearer = options.token === undefined ? await token() : options.token;
    return fetch(`${run.url}${path}`, {
      headers: { ...(bearer ? { authorization: `Bearer ${bearer}` } : {}), ...options.headers },
    });
  };

  /** A request with a JSON body (or raw text) and the demo client's full token unless told otherwise. */
  const send = async (
    method: string,
    path: string,
    body?: unknown,
    options: { token?: string | null; headers?: Record<string, string> } = {},
  ) => {
    const bearer = options.token === undefined ? await token() : options.token;
    return fetch(`${run.url}${path}`, {
      method,
      headers: {
        ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...options.headers,
      },
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
  };

  const records = new RecordRepository(db, tableName);
  const signingKeys = new SigningKeyRepository(db, tableName);
  const users = new UserRepository(db, tableName);
  /** An access token for a demo account, as the code flow would issue it (see person-token.ts). */
  const personToken = personTokens(db, tableName, run.url);

  return {
    url: run.url,
    auditLogFile,
    send,
    tableName,
    db,
    records,
    signingKeys,
    users,
    /** Who signs this run's list cursors, to forge ones the service would accept. */
    cursorIssuer: { tenantId: DEMO_TENANT.id, cursorKey: run.cursorKey },
    /** The demo tenant's sign-in accounts (all with the password DEMO_USER_PASSWORD). */
    demoUsers: run.demoUsers,
    token,
    personToken,
    get,
    /** How many responses have been checked against the API description so far. */
    responsesChecked: () => responsesChecked,
    /**
     * Stops the API and drops its table, so the DynamoDB Local every file shares holds only what the
     * running files use; then fails the file if any response it sent did not match the description.
     */
    async stop() {
      await run.stop();
      await db.send(new DeleteTableCommand({ TableName: tableName }));
      db.destroy();
      rmSync(auditLogFile, { force: true });
      expect(violations, 'responses that do not match the API description').toEqual([]);
    },
  };
}

export type TestApi = Awaited<ReturnType<typeof startTestApi>>;

/** Creates a record through the API, which must answer 201, and returns it. */
export async function createRecord(
  api: TestApi,
  group: string,
  body: object,
): Promise<Record<string, unknown>> {
  const response = await api.send('POST', `/api/${group}`, body);
  if (response.status !== 201)
    throw new Error(`POST /api/${group}: ${response.status} ${await response.text()}`);
  return (await response.json()) as Record<string, unknown>;
}

/** Deletes a record through the API, which must answer 204. */
export async function removeRecord(api: TestApi, group: string, id: unknown): Promise<void> {
  const response = await api.send('DELETE', `/api/${group}/${String(id)}`);
  if (response.status !== 204)
    throw new Error(`DELETE /api/${group}/${String(id)}: ${response.status} ${await response.text()}`);
}
