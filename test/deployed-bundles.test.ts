// The shipped bundles are what runs: `cdk synth` bundles every function as a deploy would, and each
// function's asset is loaded from the assembly in a fresh Node process of its Lambda runtime, with the
// environment the template gives it, and invoked the way its trigger invokes it in AWS: HTTP API payload
// 2.0 events for the routes, EventBridge's scheduled event for the export, CloudFormation's Create event
// for the signing key, a DynamoDB stream batch and an SQS message for the change events' functions. The
// template's references point at local stand-ins (DynamoDB Local, s3rver, moto's Secrets Manager and
// SQS); every function must load and answer, and print no warning.
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CloudWatchLogsClient } from '@aws-sdk/client-cloudwatch-logs';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import {
  CreateQueueCommand,
  DeleteMessageCommand,
  GetQueueAttributesCommand,
  type Message,
  ReceiveMessageCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import S3rver from 's3rver';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { LAMBDA_NODE_TARGET } from '../infra/bundling';
import { auditOfPerson, logGroupAuditSource } from '../infra/cli/admin/audit';
import {
  DEMO_APP_ID,
  DEMO_CLIENT_ID,
  DEMO_REDIRECT_URIS,
  registerDemoClients,
  registerDemoUsers,
} from '../infra/local/bootstrap';
import { DEMO_USER_PASSWORD } from '../infra/local/local-run';
import type { DemoUser } from '../infra/local/seed/demo-users';
import { tenants } from '../infra/tenants';
import { createDocumentClient } from '../shared/data/document-client';
import { itemKinds } from '../shared/data/item-kinds';
import { keys } from '../shared/data/keys';
import { RecordRepository } from '../shared/data/record-repository';
import { SigningKeyRepository } from '../shared/data/signing-key-repository';
import { groups, idFields, personGroups, type RecordGroup, recordGroups } from '../shared/domain/groups';
import { ACTIVE_REFRESH_MS } from '../shared/events/delivery';
import { createS3Client, S3Store } from '../shared/exports/store';
import { verifyExport } from '../shared/exports/verify';
import { openApiDocument } from '../shared/openapi/document';
import { routes } from '../shared/routes';
import {
  type CloudAssembly,
  type DeployedFunction,
  type ResourceRef,
  readCloudAssembly,
} from './support/cloud-assembly';
import { expectProblem, json } from './support/contract';
import { copyTemplateRecords } from './support/demo-table';
import { documentBody, organisationBody, personBody } from './support/fixtures';
import { nodeForRuntime } from './support/lambda-environment';
import { LocalDeployment } from './support/local-deployment';
import { hasMotoServer, type MotoServer, startMotoServer } from './support/moto-server';
import { basic, form } from './support/oauth';
import { rosterSamples } from './support/oneroster-samples';
import { ResponseValidator } from './support/openapi-validator';
import { authorizeUrl, pkce, REDIRECT_URI } from './support/sign-in';
import { completeSignIn } from './support/sign-in-form';
import { synthesizedAssembly } from './support/synthesize';
import { startReceiver } from './support/webhook-receiver';

const DEMO_SECRET = 'deployed-demo-secret';
/** The deployed delta feeds stop this far behind the clock (the service's default SYNC_LAG_MS). */
const SYNC_LAG_MS = 2000;

type Row = Record<string, unknown>;

let assembly: CloudAssembly;
let deployment: LocalDeployment;
let moto: MotoServer;
let sqs: SQSClient;
/** The stand-in URL of each of the stack's SQS queues, by logical id. */
let queueUrls: Map<string, string>;
let s3: { endpoint: string; close(): Promise<void> };
let workDir: string;
let base: string;
let tableName: string;
let demoUsers: DemoUser[];
const violations: string[] = [];

/**
 * What the functions get beyond the template's variables and Lambda's own: where the stand-ins listen,
 * and the local run's leave to send webhooks to loopback, where the test's receiver stands in for a
 * subscriber's server.
 */
const standInEndpoints = () => ({
  AWS_ENDPOINT_URL_DYNAMODB: inject('dynamodbEndpoint'),
  AWS_ENDPOINT_URL_S3: s3.endpoint,
  AWS_ENDPOINT_URL_SECRETS_MANAGER: moto.endpoint,
  AWS_ENDPOINT_URL_CLOUDWATCH_LOGS: moto.endpoint,
  AWS_ENDPOINT_URL_SQS: moto.endpoint,
  WEBHOOK_LOOPBACK: 'allowed',
});

/**
 * The stack's SQS queues, which the local deployment makes no stand-in for, made in moto's SQS, FIFO
 * where the template says so (its name then ends in `.fifo`); every function variable that refers to one
 * (`Ref`, its URL) is given that URL, as CloudFormation resolves it.
 */
async function createQueues(stackName: string): Promise<Map<string, string>> {
  const urls = new Map<string, string>();
  for (const scope of assembly.stacks.filter((s) => s.stackName === stackName)) {
    const inScope = new Map<string, string>();
    for (const [logicalId, resource] of Object.entries(scope.template.Resources ?? {})) {
      if (resource.Type !== 'AWS::SQS::Queue') continue;
      const fifo = resource.Properties?.FifoQueue === true;
      const { QueueUrl } = await sqs.send(
        new CreateQueueCommand({
          QueueName: `${logicalId}-${randomBytes(4).toString('hex')}${fifo ? '.fifo' : ''}`,
          Attributes: fifo ? { FifoQueue: 'true' } : {},
        }),
      );
      inScope.set(logicalId, QueueUrl as string);
      urls.set(logicalId, QueueUrl as string);
    }
    for (const fn of assembly.functions.filter((f) => f.scope === scope)) {
      for (const [name, value] of Object.entries(fn.environment)) {
        const url = inScope.get(String((value as { Ref?: unknown }).Ref));
        if (url) fn.environment[name] = url;
      }
    }
  }
  return urls;
}

/** A Lambda event source mapping of the stack: the function it invokes and the stream or queue it reads. */
interface EventSource {
  fn: DeployedFunction;
  source: ResourceRef;
  filters: unknown[];
}

function eventSources(): EventSource[] {
  return assembly.stacks
    .filter((scope) => scope.stackName === stackUnderTest())
    .flatMap((scope) =>
      Object.values(scope.template.Resources ?? {})
        .filter((resource) => resource.Type === 'AWS::Lambda::EventSourceMapping')
        .map(({ Properties: properties = {} }) => {
          const fnId = (properties.FunctionName as { Ref: string }).Ref;
          const [sourceId = ''] = (properties.EventSourceArn as { 'Fn::GetAtt': string[] })['Fn::GetAtt'];
          const fn = deployment.functions.find((f) => f.scope === scope && f.logicalId === fnId);
          const resource = scope.template.Resources?.[sourceId];
          if (!fn || !resource) throw new Error(`${scope.path}: a mapping of ${fnId} from ${sourceId}`);
          const criteria = properties.FilterCriteria as { Filters: { Pattern: string }[] } | undefined;
          return {
            fn,
            source: { scope, logicalId: sourceId, resource },
            filters: (criteria?.Filters ?? []).map((filter) => JSON.parse(filter.Pattern) as unknown),
          };
        }),
    );
}

/** Lambda's event filtering, for patterns of exact values: each list names the values allowed there. */
const matches = (pattern: unknown, event: unknown): boolean =>
  Array.isArray(pattern)
    ? pattern.includes(event)
    : Object.entries(pattern as object).every(([name, inner]) =>
        matches(inner, (event as Record<string, unknown> | undefined)?.[name]),
      );

/**
 * A stream record of an item written, as DynamoDB Streams hands it to Lambda (NEW_AND_OLD_IMAGES): put
 * for the first time (INSERT) or changed (MODIFY, its new image).
 */
function streamRecord(item: Record<string, unknown>, tableArn: string, eventName: 'INSERT' | 'MODIFY') {
  const image = marshall(item, { removeUndefinedValues: true });
  return {
    eventID: randomBytes(16).toString('hex'),
    eventName,
    eventVersion: '1.1',
    eventSource: 'aws:dynamodb',
    awsRegion: 'eu-west-1',
    dynamodb: {
      ApproximateCreationDateTime: Math.floor(Date.now() / 1000),
      Keys: marshall({ pk: item.pk, sk: item.sk }),
      NewImage: image,
      SequenceNumber: String(BigInt(Date.now()) * 1_000_000n),
      SizeBytes: JSON.stringify(image).length,
      StreamViewType: 'NEW_AND_OLD_IMAGES',
    },
    eventSourceARN: `${tableArn}/stream/${new Date().toISOString().slice(0, 23)}`,
  };
}

/** An SQS message as Lambda hands it to a function, one to an invocation. */
const sqsRecord = (message: Message, queueArn: string) => ({
  messageId: message.MessageId,
  receiptHandle: message.ReceiptHandle,
  body: message.Body,
  attributes: message.Attributes,
  messageAttributes: {},
  md5OfBody: message.MD5OfBody,
  eventSource: 'aws:sqs',
  eventSourceARN: queueArn,
  awsRegion: 'eu-west-1',
});

async function receiveOne(queueUrl: string): Promise<Message> {
  const { Messages = [] } = await sqs.send(
    new ReceiveMessageCommand({
      QueueUrl: queueUrl,
      MaxNumberOfMessages: 10,
      MessageSystemAttributeNames: ['All'],
      WaitTimeSeconds: 1,
    }),
  );
  expect(Messages).toHaveLength(1);
  return Messages[0] as Message;
}

async function startS3rver(directory: string) {
  const server = new S3rver({ address: '127.0.0.1', port: 0, directory, silent: true });
  const { port } = await server.run();
  return { endpoint: `http://127.0.0.1:${port}`, close: () => server.close() };
}

/** The staging tenant's stack: the one a change reaches first, and its API is reached at its own address. */
function stackUnderTest(): string {
  const staging = tenants.find((tenant) => !tenant.production);
  const stack = assembly.stacks.find((scope) => !scope.parent && scope.tags.tenant === staging?.id);
  if (!stack) throw new Error('the assembly has no stack of a staging tenant');
  return stack.stackName;
}

let clientToken: string;

const request = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
  fetch(`${base}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${clientToken}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

const tokenRequest = (body: Record<string, string>, headers: Record<string, string> = {}) =>
  fetch(`${base}/api/sso/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: form(body),
  });

/**
 * Lists, gets, creates, replaces, adds a document to (where records hold them) and deletes records of a
 * group; returns the ids. A rostering record is created as a copy of the first one listed, naming what it names.
 */
/** The student records of people a class enrolls as students, read through the bundles. */
async function studentsOfClass(classId: string): Promise<Row[]> {
  const db = createDocumentClient({ region: 'eu-west-1', endpoint: inject('dynamodbEndpoint') });
  const enrollments = await new RecordRepository(db, tableName).enrollmentsOfClass(classId);
  db.destroy();
  const enrolled = new Set(enrollments.filter((e) => e.role === 'student').map((e) => e.entity_id));
  const students = (await json<Row>(await request('GET', '/api/students?items_per_page=500')))
    .students as Row[];
  return students.filter((s) => enrolled.has(s.entity_id as string));
}

/** What a student has one result of: a line item, an assessment. */
const gradedBy = { results: 'line_items', assessment_results: 'assessment_line_items' } as const;

/** Two new line items (or assessments) like one, of its class. */
async function copiesOf(group: 'line_items' | 'assessment_line_items', id: string): Promise<string[]> {
  const idField = idFields[group];
  const item = await json<Row>(await request('GET', `/api/${group}/${id}`));
  const { [idField]: _id, created_at: _created, updated_at: _updated, ...copy } = item;
  const made = [];
  for (const title of ['Cópia A', 'Cópia B']) {
    made.push(await json<Row>(await request('POST', `/api/${group}`, { ...copy, title }), 201));
  }
  return made.map((m) => m[idField] as string);
}

async function readAndWrite(group: RecordGroup, studentId: string) {
  const idField = idFields[group];
  const page = await json<Row>(await request('GET', `/api/${group}?items_per_page=5`));
  const first = (page[group] as Row[])[0] as Row;
  expect(await json<Row>(await request('GET', `/api/${group}/${first[idField]}`))).toEqual(first);
  const { [idField]: _id, created_at: _created, updated_at: _updated, ...copy } = first;
  // A student has one result per line item (or assessment): each new result is for one made for it.
  const graded = group === 'results' || group === 'assessment_results' ? gradedBy[group] : undefined;
  const lineItems = graded ? await copiesOf(graded, copy[idFields[graded]] as string) : [];
  const body = (made = 0): Row =>
    group === 'entities'
      ? organisationBody()
      : group === 'tutors'
        ? { ...personBody('D'), student_ids: [studentId] }
        : personGroups.includes(group as never)
          ? personBody('D')
          : graded
            ? { ...copy, [idFields[graded]]: lineItems[made] }
            : group === 'attendance'
              ? // A student has one mark a day: each new one is on a day after the demo's.
                { ...copy, date: `2026-12-0${made + 1}` }
              : copy;
  const change: Row =
    group === 'enrollments'
      ? { end_date: '2027-06-30' }
      : personGroups.includes(group as never)
        ? { name: 'Nome Substituído' }
        : graded
          ? { comment: 'Comentário substituído' }
          : group === 'attendance'
            ? { note: 'Nota substituída' }
            : { title: 'Nome Substituído' };
  const created = await json<Row>(await request('POST', `/api/${group}`, body()), 201);
  const path = `/api/${group}/${created[idField]}`;
  const replaced = await request('PUT', path, { ...body(), ...change }, { 'if-match': '"1"' });
  expect(await json<Row>(replaced)).toMatchObject(change);
  if (groups[group].documents) {
    const withDocument = await json<Row>(await request('POST', `${path}/documents`, documentBody), 201);
    expect(withDocument.documents).toContainEqual(documentBody);
  }
  const doomed = await json<Row>(await request('POST', `/api/${group}`, body(1)), 201);
  expect((await request('DELETE', `/api/${group}/${doomed[idField]}`)).status).toBe(204);
  await expectProblem(await request('GET', `/api/${group}/${doomed[idField]}`), 410);
  return { replaced: created[idField], deleted: doomed[idField] };
}

describe.skipIf(!hasMotoServer())('the deployed bundles', () => {
  beforeAll(async () => {
    assembly = readCloudAssembly(await synthesizedAssembly());
    workDir = mkdtempSync(join(tmpdir(), 'deployed-bundles-'));
    moto = await startMotoServer();
    sqs = new SQSClient({
      region: 'eu-west-1',
      endpoint: moto.endpoint,
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });
    queueUrls = await createQueues(stackUnderTest());
    s3 = await startS3rver(join(workDir, 's3'));
    const validator = new ResponseValidator(openApiDocument('http://127.0.0.1'));
    deployment = await LocalDeployment.deploy({
      assembly,
      stackName: stackUnderTest(),
      endpoints: standInEndpoints(),
      inspect: (exchange) => {
        try {
          violations.push(...validator.check(exchange));
        } catch (error) {
          violations.push(`${exchange.method} ${exchange.path}: could not be checked: ${error}`);
        }
      },
    });
    const [gateway] = deployment.gateways;
    const [table] = deployment.tables.values();
    if (deployment.gateways.length !== 1 || !gateway || deployment.tables.size !== 1 || !table) {
      throw new Error('the stack should have one HTTP API and one table');
    }
    base = gateway.url;
    tableName = table;
    // What an operator does after a deploy: register clients and accounts, import records (the demo
    // records, copied from the run's seeded template rather than seeded again).
    const db = createDocumentClient({ region: 'eu-west-1', endpoint: inject('dynamodbEndpoint') });
    await registerDemoClients(db, tableName, DEMO_SECRET, DEMO_REDIRECT_URIS);
    await copyTemplateRecords(db, tableName);
    demoUsers = await registerDemoUsers(db, tableName, DEMO_USER_PASSWORD);
    db.destroy();
  }, 600_000);

  afterAll(async () => {
    await deployment?.stop();
    sqs?.destroy();
    await Promise.all([moto?.stop(), s3?.close()]);
    if (workDir) rmSync(workDir, { recursive: true, force: true });
  });

  it('run on one Node major: the functions’ runtime, the bundling target, engines and the Node running them', () => {
    const runtimes = new Set(assembly.functions.map((fn) => fn.runtime));
    expect([...runtimes]).toHaveLength(1);
    const [runtime = ''] = runtimes;
    const major = /^nodejs(\d+)\.x$/.exec(runtime)?.[1];
    expect(Number(major)).toBeGreaterThanOrEqual(22);
    expect(LAMBDA_NODE_TARGET).toBe(`node${major}`);
    const packageJson = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
    expect(packageJson.engines.node).toBe(`>=${major}`);
    expect(nodeForRuntime(runtime).version.split('.')[0]).toBe(major);
  });

  it('create the signing key at deploy time: the private key in the secret, the public half in the table', async () => {
    expect(deployment.customResources.length).toBeGreaterThan(0);
    for (const outcome of deployment.customResources) {
      expect(outcome.invocation).toMatchObject({ ok: true });
      expect(outcome.response?.headers['content-type'] ?? '').toBe('');
      expect(JSON.parse(outcome.response?.body ?? '{}')).toMatchObject({
        Status: 'SUCCESS',
        RequestId: outcome.request.RequestId,
        LogicalResourceId: outcome.resource.logicalId,
        StackId: outcome.request.StackId,
      });
    }
    const [secretArn] = deployment.secrets.values();
    const secrets = new SecretsManagerClient({
      region: 'eu-west-1',
      endpoint: moto.endpoint,
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });
    const stored = JSON.parse(
      (await secrets.send(new GetSecretValueCommand({ SecretId: secretArn }))).SecretString ?? '{}',
    );
    secrets.destroy();
    const kid = (
      JSON.parse(deployment.customResources[0]?.response?.body ?? '{}') as { Data?: { Kid?: string } }
    ).Data?.Kid;
    expect(stored).toMatchObject({ kid, jwk: { kty: 'EC', crv: 'P-256', d: expect.any(String) } });
    const db = createDocumentClient({ region: 'eu-west-1', endpoint: inject('dynamodbEndpoint') });
    const published = await new SigningKeyRepository(db, tableName).publicKeys();
    db.destroy();
    expect(published.map((key) => key.kid)).toEqual([kid]);
    expect(published[0]?.jwk).not.toHaveProperty('d');
  });

  it('issue a client token signed with the secret’s key, and publish the keys and the metadata', async () => {
    const issued = await json<Row>(
      await tokenRequest(
        { grant_type: 'client_credentials' },
        { authorization: basic(DEMO_CLIENT_ID, DEMO_SECRET) },
      ),
    );
    clientToken = issued.access_token as string;
    expect(issued).toMatchObject({ token_type: 'Bearer', expires_in: expect.any(Number) });
    const jwks = await json<{ keys: Row[] }>(await fetch(`${base}/api/sso/jwks`));
    const header = JSON.parse(Buffer.from(clientToken.split('.')[0] ?? '', 'base64url').toString());
    expect(jwks.keys.map((key) => key.kid)).toContain(header.kid);
    const metadata = await json<Row>(await fetch(`${base}/api/sso/.well-known/openid-configuration`));
    expect(metadata).toMatchObject({ issuer: `${base}/api/sso`, token_endpoint: `${base}/api/sso/token` });
    // RFC 8414 section 3.1's address for the same issuer answers the same document.
    expect(await json<Row>(await fetch(`${base}/.well-known/oauth-authorization-server/api/sso`))).toEqual(
      metadata,
    );
    expect(await json<Row>(await request('GET', '/api/sso/me'))).toMatchObject({ client_id: DEMO_CLIENT_ID });
  });

  it('sign a person in on the page, refresh the tokens and revoke them', async () => {
    const { verifier, challenge } = pkce();
    const account = demoUsers[0] as DemoUser;
    const back = await completeSignIn(
      authorizeUrl(base, { code_challenge: challenge, scope: 'openid profile' }),
      {
        username: account.username,
        password: DEMO_USER_PASSWORD,
      },
    );
    expect(back.searchParams.get('iss')).toBe(`${base}/api/sso`);
    const code = back.searchParams.get('code') ?? '';
    const tokens = await json<Row>(
      await tokenRequest({
        grant_type: 'authorization_code',
        client_id: DEMO_APP_ID,
        code,
        code_verifier: verifier,
        redirect_uri: REDIRECT_URI,
      }),
    );
    const me = await json<Row>(
      await fetch(`${base}/api/sso/me`, { headers: { authorization: `Bearer ${tokens.access_token}` } }),
    );
    expect(me).toMatchObject({ username: account.username });
    // OpenID Connect: userinfo by GET and POST, and logout with the ID token (this browser holds no session).
    const bearer = { authorization: `Bearer ${tokens.access_token}` };
    const info = await json<Row>(await fetch(`${base}/api/sso/userinfo`, { headers: bearer }));
    expect(info).toMatchObject({ sub: me.entity_id, preferred_username: account.username });
    expect(
      await json<Row>(await fetch(`${base}/api/sso/userinfo`, { method: 'POST', headers: bearer })),
    ).toEqual(info);
    const hint = form({ id_token_hint: tokens.id_token as string });
    expect((await fetch(`${base}/api/sso/logout?${hint}`)).status).toBe(200);
    const posted = await fetch(`${base}/api/sso/logout`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: hint,
    });
    expect(posted.status).toBe(200);
    const refreshed = await json<Row>(
      await tokenRequest({
        grant_type: 'refresh_token',
        client_id: DEMO_APP_ID,
        refresh_token: tokens.refresh_token as string,
      }),
    );
    const revoked = await fetch(`${base}/api/sso/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form({ client_id: DEMO_APP_ID, token: refreshed.refresh_token as string }),
    });
    expect(revoked.status).toBe(200);
    const reuse = await tokenRequest({
      grant_type: 'refresh_token',
      client_id: DEMO_APP_ID,
      refresh_token: refreshed.refresh_token as string,
    });
    expect(reuse.status).toBe(400);
  }, 60_000);

  it('read and write the records of every group', async () => {
    const students = await json<Row>(await request('GET', '/api/students?items_per_page=1'));
    const studentId = ((students.students as Row[])[0] as Row).student_id as string;
    const since = encodeURIComponent(new Date().toISOString());
    const written = new Map<RecordGroup, { replaced: unknown; deleted: unknown }>();
    for (const group of recordGroups) written.set(group, await readAndWrite(group, studentId));
    await new Promise((resolve) => setTimeout(resolve, SYNC_LAG_MS + 200));
    for (const [group, { replaced, deleted }] of written) {
      const idField = idFields[group];
      const changed = await json<Row>(await request('GET', `/api/${group}?updated_since=${since}`));
      expect((changed[group] as Row[]).map((record) => record[idField])).toContain(replaced);
      const feed = await json<Row>(await request('GET', `/api/${group}/deleted?since=${since}`));
      expect(feed.deleted).toContainEqual({ [idField]: deleted, deleted_at: expect.any(String) });
    }
  }, 180_000);

  it("take a class's register, grade a line item's students, each in one request, and read a student's grades and the summaries", async () => {
    const [item] = (await json<Row>(await request('GET', '/api/line_items?items_per_page=1')))
      .line_items as Row[];
    const cls = { class_id: item?.class_id as string };
    const studentIds = (await studentsOfClass(cls.class_id)).slice(0, 2).map((s) => s.student_id as string);
    const marks = studentIds.map((student_id) => ({ student_id, status: 'present' }));
    const register = await json<Row>(
      await request('PUT', `/api/classes/${cls?.class_id}/attendance/2026-12-21`, { marks }),
    );
    expect((register.attendance as Row[]).map((a) => a.student_id)).toEqual(studentIds);
    const grades = studentIds.map((student_id) => ({
      student_id,
      status: 'submitted',
      score_date: '2026-12-21',
    }));
    const graded = await json<Row>(
      await request('PUT', `/api/line_items/${item?.line_item_id}/results`, { results: grades }),
    );
    expect((graded.results as Row[]).map((r) => [r.student_id, r.class_id])).toEqual(
      studentIds.map((id) => [id, item?.class_id]),
    );
    const report = await json<Row>(await request('GET', `/api/students/${studentIds[0]}/grades`));
    expect(report.student_id).toBe(studentIds[0]);
    // The summaries read the tallies the register and the grading just changed.
    const summary = await json<Row>(
      await request('GET', `/api/students/${studentIds[0]}/attendance_summary`),
    );
    const inClass = (summary.classes as Row[]).find((c) => c.class_id === cls.class_id);
    expect((inClass?.marks as Row | undefined)?.present).toBeGreaterThan(0);
    const distribution = await json<Row>(
      await request('GET', `/api/line_items/${item?.line_item_id}/distribution`),
    );
    expect((distribution.statuses as Row).submitted).toBeGreaterThanOrEqual(studentIds.length);
  }, 60_000);

  it('serve every OneRoster 1.2 rostering collection, object and nested collection', async () => {
    const samples = await rosterSamples((path) => request('GET', path));
    for (const route of routes.filter((r) => r.dialect.kind === 'imsx' && r.method === 'GET')) {
      const path = samples.pathOf(route.path);
      const response = await request('GET', route.id.startsWith('list-') ? `${path}?limit=2` : path);
      const expected = path.includes('/none') ? 404 : 200;
      expect(response.status, `${route.id} ${path}`).toBe(expected);
      if (expected === 200 && route.id.startsWith('list-')) {
        expect(response.headers.get('x-total-count'), route.id).toMatch(/^\d+$/);
      }
    }
  }, 600_000);

  it("take an assessment and a student's result in it by the Gradebook binding's PUT, and delete them", async () => {
    const gradebook = '/ims/oneroster/gradebook/v1p2';
    const [student] = (await json<Row>(await request('GET', '/api/students?items_per_page=1')))
      .students as Row[];
    const assessment = randomUUID();
    const made = await request('PUT', `${gradebook}/assessmentLineItems/${assessment}`, {
      assessmentLineItem: { sourcedId: assessment, title: 'Teste diagnóstico', resultValueMax: 100 },
    });
    expect(made.status, await made.text()).toBe(201);
    const result = randomUUID();
    const graded = await request('PUT', `${gradebook}/assessmentResults/${result}`, {
      assessmentResult: {
        sourcedId: result,
        assessmentLineItem: { sourcedId: assessment },
        student: { sourcedId: student?.entity_id },
        scoreStatus: 'fully graded',
        score: 64,
        scorePercentile: 55,
        scoreDate: '2026-12-12',
      },
    });
    expect(graded.status, await graded.text()).toBe(201);
    const read = await json<Row>(await request('GET', `${gradebook}/assessmentResults/${result}`));
    expect(read.assessmentResult).toMatchObject({ sourcedId: result, score: 64, scorePercentile: 55 });
    expect((await request('DELETE', `${gradebook}/assessmentResults/${result}`)).status).toBe(204);
    expect((await request('DELETE', `${gradebook}/assessmentLineItems/${assessment}`)).status).toBe(204);
  });

  it("take a line item and results by the Gradebook binding's PUT and POST, replace a category, make a class's score scale, and delete them", async () => {
    const gradebook = '/ims/oneroster/gradebook/v1p2';
    const [item] = (await json<Row>(await request('GET', '/api/line_items?items_per_page=1')))
      .line_items as Row[];
    // A result is made for a student the line item's class enrolls.
    const [student, other] = await studentsOfClass(item?.class_id as string);
    const category = await json<Row>(await request('GET', `/api/categories/${item?.category_id}`));
    const categoryBody = {
      category: { sourcedId: category.category_id, title: category.title, weight: category.weight },
    };
    expect(
      (await request('PUT', `${gradebook}/categories/${category.category_id}`, categoryBody)).status,
    ).toBe(201);
    const lineItem = randomUUID();
    const made = await request('PUT', `${gradebook}/lineItems/${lineItem}`, {
      lineItem: {
        sourcedId: lineItem,
        title: 'Ficha de revisão',
        assignDate: '2026-12-07',
        dueDate: '2026-12-11',
        class: { sourcedId: item?.class_id },
        category: { sourcedId: item?.category_id },
        resultValueMax: 20,
      },
    });
    expect(made.status, await made.text()).toBe(201);
    const result = randomUUID();
    const graded = await request('PUT', `${gradebook}/results/${result}`, {
      result: {
        sourcedId: result,
        lineItem: { sourcedId: lineItem },
        student: { sourcedId: student?.entity_id },
        scoreStatus: 'fully graded',
        score: 18,
        scoreDate: '2026-12-12',
      },
    });
    expect(graded.status, await graded.text()).toBe(201);
    const posted = await json<Row>(
      await request('POST', `${gradebook}/lineItems/${lineItem}/results`, {
        results: [
          {
            sourcedId: 'lms-1',
            student: { sourcedId: other?.entity_id },
            scoreStatus: 'submitted',
            scoreDate: '2026-12-12',
          },
        ],
      }),
      201,
    );
    const [pair] = posted.sourcedIdPairs as Row[];
    expect((await request('DELETE', `${gradebook}/results/${pair?.allocatedSourcedId}`)).status).toBe(204);
    const read = await json<Row>(await request('GET', `${gradebook}/results/${result}`));
    expect(read.result).toMatchObject({
      sourcedId: result,
      score: 18,
      student: { sourcedId: student?.entity_id },
    });
    const year = (
      (await json<Row>(await request('GET', '/api/academic_sessions?items_per_page=100')))
        .academic_sessions as Row[]
    ).find((s) => s.type === 'school_year');
    const spare = await json<Row>(
      await request('POST', '/api/categories', { title: 'Extra', school_year_id: year?.academic_session_id }),
      201,
    );
    expect((await request('DELETE', `${gradebook}/results/${result}`)).status).toBe(204);
    expect((await request('DELETE', `${gradebook}/lineItems/${lineItem}`)).status).toBe(204);
    expect((await request('DELETE', `${gradebook}/categories/${spare.category_id}`)).status).toBe(204);
    const scale = randomUUID();
    const scaled = await request('PUT', `${gradebook}/scoreScales/${scale}`, {
      scoreScale: {
        sourcedId: scale,
        title: 'Níveis',
        type: 'numeric',
        class: { sourcedId: item?.class_id },
        scoreScaleValue: [{ itemValueLHS: '1 - 5', itemValueRHS: '1 - 5' }],
      },
    });
    expect(scaled.status, await scaled.text()).toBe(201);
    expect((await request('DELETE', `${gradebook}/scoreScales/${scale}`)).status).toBe(204);
  }, 60_000);

  it('govern the clients: register one with a profile and a limit, rotate its secret, read its usage, disable it', async () => {
    const clients = '/api/admin/clients';
    const created = await json<Row>(
      await request('POST', clients, {
        name: 'Vendor',
        scopes: ['students:read'],
        profile: 'roster-basic',
        rate_limit: 100,
      }),
      201,
    );
    const { client_id: id } = created.client as Row;
    const { secret } = created.secret as Row;
    const tokens = await json<Row>(
      await tokenRequest({
        grant_type: 'client_credentials',
        client_id: id as string,
        client_secret: secret as string,
      }),
    );
    const read = await request('GET', '/api/students?items_per_page=1', undefined, {
      authorization: `Bearer ${tokens.access_token}`,
    });
    expect(read.headers.get('ratelimit-policy')).toBe('"per-minute";q=100;w=60');
    const [student] = (await json<Row>(read)).students as Row[];
    expect(student).not.toHaveProperty('photobase64');
    expect(
      ((await json<Row>(await request('GET', clients))).clients as Row[]).map((c) => c.client_id),
    ).toContain(id);
    expect(await json<Row>(await request('GET', `${clients}/${id}`))).toMatchObject({ rate_limit: 100 });
    await json<Row>(await request('PUT', `${clients}/${id}`, { name: 'Vendor', scopes: ['students:read'] }));
    const added = await json<Row>(await request('POST', `${clients}/${id}/secrets`, {}), 201);
    expect(
      ((await json<Row>(await request('GET', `${clients}/${id}/secrets`))).secrets as Row[]).length,
    ).toBe(2);
    expect((await request('DELETE', `${clients}/${id}/secrets/${added.secret_id}`)).status).toBe(204);
    expect(await json<Row>(await request('GET', `${clients}/${id}/usage`))).toMatchObject({ client_id: id });
    expect((await request('DELETE', `${clients}/${id}`)).status).toBe(204);
  }, 120_000);

  it('serve the webhooks API, and turn a record’s creation into a change event delivered to the subscriber, signed', async () => {
    const receiver = await startReceiver();
    const db = createDocumentClient({ region: 'eu-west-1', endpoint: inject('dynamodbEndpoint') });
    try {
      const sources = eventSources();
      const stream = sources.find((m) => m.source.resource.Type === 'AWS::DynamoDB::Table');
      const queue = sources.find((m) => m.source.resource.Type === 'AWS::SQS::Queue');
      if (!stream || !queue) throw new Error('the stack should read its table’s stream and a queue');
      const queueUrl = queueUrls.get(queue.source.logicalId) as string;
      // The stream function queues onto the queue the delivery function is fed from.
      expect(deployment.environmentOf(stream.fn).DELIVERY_QUEUE_URL).toBe(queueUrl);
      const { Attributes } = await sqs.send(
        new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ['QueueArn'] }),
      );
      const queueArn = Attributes?.QueueArn as string;
      const tableArn = `arn:aws:dynamodb:eu-west-1:123456789012:table/${tableName}`;
      /** The stream function given a batch of one item written, as the mapping's filter lets it through. */
      const streamChange = async (key: { pk: string; sk: string }, eventName: 'INSERT' | 'MODIFY') => {
        const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: key }));
        const record = streamRecord(Item as Record<string, unknown>, tableArn, eventName);
        expect(
          stream.filters.some((filter) => matches(filter, record)),
          key.pk,
        ).toBe(true);
        expect(await deployment.invoke(stream.fn, 'event-source', { Records: [record] })).toMatchObject({
          ok: true,
        });
        return record;
      };
      /** A replay's start, then each move it makes to its next page, handed over until it ends. */
      const streamReplay = async (replayId: string) => {
        const key = keys.webhookReplay(replayId);
        await streamChange(key, 'INSERT');
        for (let page = 1; (await db.send(new GetCommand({ TableName: tableName, Key: key }))).Item; page++) {
          // A page reads on through the shards until it is full: a replay of one event ends within a
          // page or two, and this bound stops one that never would.
          expect(page).toBeLessThanOrEqual(2 * itemKinds.webhookEvent.partition.shards);
          await streamChange(key, 'MODIFY');
        }
      };
      /** One queued delivery handed to the delivery function, and deleted after, as Lambda does on success. */
      const deliverNext = async () => {
        const message = await receiveOne(queueUrl);
        expect(message.Attributes?.ApproximateReceiveCount).toBe('1');
        const result = await deployment.invoke(queue.fn, 'event-source', {
          Records: [sqsRecord(message, queueArn)],
        });
        expect(result).toEqual({ ok: true, payload: { batchItemFailures: [] } });
        await sqs.send(
          new DeleteMessageCommand({ QueueUrl: queueUrl, ReceiptHandle: message.ReceiptHandle }),
        );
        return JSON.parse(message.Body ?? '{}') as Row;
      };
      const signedBy = (secret: string, index: number) => {
        const delivery = receiver.received[index];
        if (!delivery) throw new Error(`the receiver got no delivery ${index}`);
        const headers = {
          'webhook-id': String(delivery.headers['webhook-id']),
          'webhook-timestamp': String(delivery.headers['webhook-timestamp']),
          'webhook-signature': String(delivery.headers['webhook-signature']),
        };
        return new Webhook(secret).verify(delivery.body, headers);
      };

      const before = new Date().toISOString();
      const created = await json<{ webhook: Row; secret: string }>(
        await request('POST', '/api/webhooks', { url: receiver.url, event_types: ['students.*'] }),
        201,
      );
      const webhookId = created.webhook.webhook_id as string;
      const path = `/api/webhooks/${webhookId}`;
      expect(await json<Row>(await request('GET', path))).toEqual(created.webhook);
      const listed = await json<{ webhooks: Row[] }>(await request('GET', '/api/webhooks'));
      expect(listed.webhooks).toContainEqual(created.webhook);

      const student = await json<Row>(await request('POST', '/api/students', personBody('E')), 201);
      const studentId = student.student_id as string;
      const record = await streamChange(keys.record('students', studentId), 'INSERT');
      const event = {
        event_id: `evt_${record.eventID}`,
        type: 'students.created',
        record_id: studentId,
        at: student.updated_at,
      };
      expect(await deliverNext()).toEqual({ webhook_id: webhookId, event });
      expect(receiver.received).toHaveLength(1);
      expect(receiver.received[0]?.headers['webhook-id']).toBe(event.event_id);
      expect(signedBy(created.secret, 0)).toEqual({
        type: 'students.created',
        timestamp: student.updated_at,
        data: await json<Row>(await request('GET', `/api/students/${studentId}`)),
      });
      const { deliveries } = await json<{ deliveries: Row[] }>(await request('GET', `${path}/deliveries`));
      expect(deliveries).toEqual([
        expect.objectContaining({
          event_id: event.event_id,
          attempt: 1,
          outcome: 'delivered',
          response_status: 200,
        }),
      ]);

      // A rotated secret keeps signing beside the new one, which signs once the warm delivery function
      // reads the subscription again; a replay sends the kept event again.
      const rotated = await json<Row>(await request('POST', `${path}/rotate-secret`));
      await new Promise((resolve) => setTimeout(resolve, ACTIVE_REFRESH_MS));
      const replay = await json<Row>(await request('POST', `${path}/replay`, { since: before }), 202);
      await streamReplay(replay.replay_id as string);
      expect(await deliverNext()).toEqual({ webhook_id: webhookId, event, replay_id: replay.replay_id });
      expect(receiver.received).toHaveLength(2);
      expect(signedBy(rotated.secret as string, 1)).toEqual(signedBy(created.secret, 0));
      expect(signedBy(created.secret, 1)).toEqual(signedBy(created.secret, 0));

      expect(await json<Row>(await request('POST', `${path}/enable`))).toMatchObject({
        status: 'active',
      });
      expect((await request('DELETE', path)).status).toBe(204);
      await expectProblem(await request('GET', path), 404);
    } finally {
      db.destroy();
      await receiver.close();
    }
  }, 60_000);

  it('serve the tenant status, the API description, the docs page and its assets, and the fallback', async () => {
    const system = await json<Row>(await request('GET', '/api/system'));
    expect(system).toMatchObject({ counts: { students: expect.any(Number) } });
    const description = await json<Row>(await fetch(`${base}/api/openapi.json`));
    expect(description.openapi).toMatch(/^3\.1\./);
    const page = await fetch(`${base}/api/docs`);
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const asset = /(?:src|href)="(?:\/api\/)?docs\/([^"/?]+)"/.exec(html)?.[1];
    expect(asset, 'an asset of the docs page').toBeDefined();
    expect((await fetch(`${base}/api/docs/${asset}`)).status).toBe(200);
    await expectProblem(await request('GET', '/api/nowhere'), 404);
    await expectProblem(await request('DELETE', '/api/system'), 405);
  }, 60_000);

  it('forward the audit lines to the audit log group, where `audit person` finds who read a person', async () => {
    const since = new Date(Date.now() - 60_000).toISOString();
    const page = await json<{ students: Row[] }>(await request('GET', '/api/students?items_per_page=1'));
    const student = page.students[0] as Row;
    await json(await request('GET', `/api/students/${student.student_id}`));
    expect(deployment.subscriptions).toHaveLength(1);
    const [subscription] = deployment.subscriptions;
    if (!subscription) return;
    const result = await deployment.deliverSubscription(subscription);
    expect(result).toMatchObject({ ok: true });
    expect((result as { payload: { forwarded: number } }).payload.forwarded).toBeGreaterThan(1);
    const logGroup = deployment.environmentOf(subscription.fn).AUDIT_LOG_GROUP as string;
    expect([...deployment.logGroups.values()]).toContain(logGroup);
    const client = new CloudWatchLogsClient({
      region: 'eu-west-1',
      endpoint: moto.endpoint,
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });
    const events = await auditOfPerson(
      logGroupAuditSource(client, logGroup),
      student.entity_id as string,
      since,
    );
    client.destroy();
    expect(events.find((e) => e.route === 'get-students')).toMatchObject({
      action: 'read',
      record_ids: [student.student_id],
      entity_ids: [student.entity_id],
      outcome: 200,
      client_id: DEMO_CLIENT_ID,
    });
    expect(events.every((e) => e.entity_ids.includes(student.entity_id as string))).toBe(true);
  }, 60_000);

  it('export every group to the bucket on the schedule, as a run its manifest verifies', async () => {
    expect(deployment.schedules).toHaveLength(1);
    const [schedule] = deployment.schedules;
    const counts = (await json<{ counts: Record<string, number> }>(await request('GET', '/api/system')))
      .counts;
    const time = new Date();
    const result = await deployment.runSchedule(schedule as NonNullable<typeof schedule>, time);
    expect(result).toMatchObject({ ok: true, payload: { status: 'complete' } });
    const [bucket] = deployment.buckets.values();
    const location = (result as { payload: { location: string } }).payload.location;
    const prefix = location.replace(`s3://${bucket}/`, '');
    const client = createS3Client({ region: 'eu-west-1', endpoint: s3.endpoint });
    const verification = await verifyExport(new S3Store(client, bucket as string, prefix));
    client.destroy();
    expect(verification).toMatchObject({ ok: true });
    if (!verification.ok) return;
    for (const group of recordGroups) {
      expect(verification.manifest.groups[group]?.total_items, group).toBe(counts[group]);
    }
  }, 60_000);

  it('every function of the stack was invoked and answered, and every response is as described', () => {
    const failures = deployment.invocations
      .filter((invocation) => !invocation.result.ok)
      .map((invocation) => `${invocation.fn.name}: ${JSON.stringify(invocation.result)}`);
    expect(failures).toEqual([]);
    const invoked = new Set(deployment.invocations.map((invocation) => invocation.fn));
    expect(deployment.functions.filter((fn) => !invoked.has(fn)).map((fn) => fn.name)).toEqual([]);
    expect(violations).toEqual([]);
  });

  it('log JSON lines (cold start, request ids, the person acting) and publish request metrics as EMF', () => {
    const lines = deployment.functions.flatMap((fn) =>
      deployment
        .output(fn)
        .stdout.split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Record<string, unknown>),
    );
    const requests = lines.filter((line) => line.message === 'request');
    expect(requests.length).toBeGreaterThan(0);
    for (const line of requests) {
      expect(line).toMatchObject({ level: 'info', cold_start: expect.any(Boolean) });
      expect(line.function_request_id).toEqual(expect.any(String));
      expect(line.request_id).toEqual(expect.any(String));
    }
    expect(requests.some((line) => line.cold_start === true)).toBe(true);
    expect(requests.some((line) => line.cold_start === false)).toBe(true);
    expect(requests.some((line) => typeof line.person_id === 'string')).toBe(true);
    const emf = lines.filter((line) => line._aws !== undefined) as {
      _aws: {
        CloudWatchMetrics: { Namespace: string; Dimensions: string[][]; Metrics: { Name: string }[] }[];
      };
      [key: string]: unknown;
    }[];
    const metricNames = (line: (typeof emf)[number]) =>
      line._aws.CloudWatchMetrics.flatMap((m) => m.Metrics.map((metric) => metric.Name));
    const byRoute = emf.filter((line) => metricNames(line).includes('Requests'));
    expect(byRoute.length).toBeGreaterThan(0);
    expect(byRoute[0]?._aws.CloudWatchMetrics[0]?.Namespace).toBe('SchoolApi');
    expect(byRoute.some((line) => line.route === 'list-students' && line.Requests === 1)).toBe(true);
    const written = emf.filter((line) => metricNames(line).includes('RecordsWritten'));
    expect(written.map((line) => line.group)).toEqual(expect.arrayContaining(['students', 'tutors']));
  });

  it('no function wrote to stderr, printed a warning or logged an error', () => {
    for (const fn of deployment.functions) {
      const { stdout, stderr } = deployment.output(fn);
      expect(stderr, fn.name).toBe('');
      expect(stdout, fn.name).not.toMatch(/Warning/);
      for (const line of stdout.split('\n').filter(Boolean)) {
        const entry = JSON.parse(line) as { level?: string; _aws?: unknown };
        // Embedded-metric-format lines are metrics, not log lines: they carry no level.
        if (entry._aws === undefined) {
          expect(['debug', 'info', 'warn'], `${fn.name}: ${line}`).toContain(entry.level);
        }
      }
    }
  });
});
