// Checks the synthesized tenant stacks against what the deployment promises: the route table served
// exactly, each area in its nested stack, least privilege per function, the table the local run makes,
// table settings per production flag, the change events' stream, queues and functions, the tenant's
// alarms, tenants sharing nothing, room for three times today's routes, and no unacknowledged cdk-nag
// finding. Bundling is skipped; the bundle report covers
// the bundles.

import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { App, type CfnElement, type Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { beforeAll, describe, expect, it } from 'vitest';
import { AUDIT_FILTER_PATTERN } from '../shared/audit/forwarder';
import { keys } from '../shared/data/keys';
import { createTableInput, tableDesign } from '../shared/data/table';
import { recordGroups } from '../shared/domain/groups';
import { WEBHOOK_ATTEMPTS } from '../shared/events/backoff';
import { deliveryFunctionAccess, streamFunctionAccess, streamPartitions } from '../shared/events/partitions';
import { STREAM_BATCH_SIZE, STREAM_RETRY_ATTEMPTS } from '../shared/events/stream-source';
import { eventBridgeCron } from '../shared/exports/schedule';
import type { Route } from '../shared/route';
import { fallbackRoute, partitionsCounted, partitionsRead, routes } from '../shared/routes';
import { acceptedFindings } from './nag-acknowledgements';
import { areaOf, type RouteTable } from './route-area-stack';
import { addTenantStacks, type SchoolStack, stackName } from './school-stack';
import { failedInvocationPattern, failureMetricNamespace } from './tenant-alarms';
import { DELIVERY_TIMEOUT } from './tenant-events';
import { type Tenant, tenants } from './tenants';

type Resource = { Type: string; Properties: Record<string, unknown> } & Record<string, unknown>;
type Statement = {
  Action: string | string[];
  Resource: unknown;
  Condition?: Record<string, Record<string, unknown>>;
};

/** One synthesized template of a tenant: the root stack's, or a nested stack's. */
interface Part {
  stack: Stack;
  template: Template;
  resources: Record<string, Resource>;
}

/** A resource and the template it is in (logical ids are unique per template only). */
interface Located {
  part: Part;
  id: string;
  resource: Resource;
}

interface Synthesized {
  tenant: Tenant;
  stack: SchoolStack;
  root: Part;
  /** The root first, then the nested stack of every area. */
  parts: Part[];
}

/** CloudFormation's limit is 500 resources a template; the stacks keep a margin under it. */
const RESOURCE_BUDGET = 400;

const allRoutes = [...routes, fallbackRoute];
const routeKey = (route: Route) => (route.path === '$default' ? '$default' : `${route.method} ${route.path}`);
const asArray = <T>(value: T | T[]): T[] => (Array.isArray(value) ? value : [value]);
const writeActions =
  /^dynamodb:(Put|Update|Delete|ConditionCheck|BatchWrite|TransactWrite)|^secretsmanager:(Put|Update|Delete)/;

function partOf(stack: Stack): Part {
  const template = Template.fromStack(stack);
  return { stack, template, resources: template.toJSON().Resources };
}

function synthesize(tenantList: readonly Tenant[], routeTable?: RouteTable): Synthesized[] {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  return addTenantStacks(app, tenantList, routeTable).map((stack, i) => {
    const root = partOf(stack);
    return {
      tenant: tenantList[i] as Tenant,
      stack,
      root,
      parts: [root, ...[...stack.areas.values()].map(partOf)],
    };
  });
}

let synthesized: Synthesized[];

beforeAll(() => {
  synthesized = synthesize(tenants);
}, 120_000);

function resource(part: Part, id: string): Resource {
  const found = part.resources[id];
  if (!found) throw new Error(`no resource ${id}`);
  return found;
}

function ofType(s: Synthesized, type: string): Located[] {
  return s.parts.flatMap((part) =>
    Object.entries(part.resources)
      .filter(([, r]) => r.Type === type)
      .map(([id, r]) => ({ part, id, resource: r })),
  );
}

/** The resource of a type the stack has exactly one of. */
function theOne(s: Synthesized, type: string): Located {
  const found = ofType(s, type);
  expect(found, type).toHaveLength(1);
  return found[0] as Located;
}

/** The function serving a route, found by the route id its description starts with. */
function functionOf(s: Synthesized, route: Route): Located {
  const found = ofType(s, 'AWS::Lambda::Function').filter(({ resource: r }) =>
    String(r.Properties.Description).startsWith(`${route.id}: `),
  );
  expect(found, route.id).toHaveLength(1);
  return found[0] as Located;
}

/** A value as the root stack sees it: a nested stack's parameter becomes what the root passes it. */
function inRoot(s: Synthesized, part: Part, value: unknown): unknown {
  const ref = (value as { Ref?: string } | undefined)?.Ref;
  if (part === s.root || ref === undefined) return value;
  const nested = part.stack.nestedStackResource as CfnElement;
  const parameters = resource(s.root, s.stack.getLogicalId(nested)).Properties.Parameters as Record<
    string,
    unknown
  >;
  return ref in parameters ? parameters[ref] : value;
}

/** Every statement of a function's role: its inline policy is its whole grant. */
function allStatementsOf({ part, resource: fn }: Located): Statement[] {
  const roleId = (fn.Properties.Role as { 'Fn::GetAtt': string[] })['Fn::GetAtt'][0] as string;
  const role = resource(part, roleId);
  expect(role.Properties.ManagedPolicyArns).toBeUndefined();
  return (role.Properties.Policies as { PolicyDocument: { Statement: Statement[] } }[]).flatMap(
    (policy) => policy.PolicyDocument.Statement,
  );
}

const isTracingGrant = (st: Statement) => asArray(st.Action).includes('xray:PutTraceSegments');

/** A function's grant, without the X-Ray one of a traced tenant (checked on its own below). */
const statementsOf = (fn: Located): Statement[] => allStatementsOf(fn).filter((st) => !isTracingGrant(st));

const actionsOf = (statements: Statement[]) => new Set(statements.flatMap((st) => asArray(st.Action)));

function leadingKeysOf(statements: Statement[]): string[][] {
  return statements
    .filter((st) => asArray(st.Action).some((a) => a.startsWith('dynamodb:')))
    .map((st) => asArray(st.Condition?.['ForAllValues:StringEquals']?.['dynamodb:LeadingKeys'] as string[]));
}

/** The secret that holds the token signing key (the other one holds the cursor key). */
function signingKeySecret(s: Synthesized): Located {
  const found = ofType(s, 'AWS::SecretsManager::Secret').filter(({ resource: r }) =>
    String(r.Properties.Description).startsWith('Private token signing key'),
  );
  expect(found).toHaveLength(1);
  return found[0] as Located;
}

const variablesOf = ({ resource: fn }: Located) =>
  (fn.Properties.Environment as { Variables: Record<string, unknown> }).Variables;

/** A function outside the route table, found by the name its description starts with. */
function serviceFunction(s: Synthesized, name: string): Located {
  const found = ofType(s, 'AWS::Lambda::Function').filter(({ resource: r }) =>
    String(r.Properties.Description).startsWith(`${name}: `),
  );
  expect(found, name).toHaveLength(1);
  return found[0] as Located;
}

/** The logical id of a construct of the root stack, such as one of the change events' queues. */
const rootId = (s: Synthesized, construct: { node: { defaultChild?: unknown } }) =>
  s.stack.getLogicalId(construct.node.defaultChild as CfnElement);

/** The change events' queues, by role. */
const eventQueues = (s: Synthesized) => ({
  delivery: rootId(s, s.stack.events.deliveryQueue),
  deadLetters: rootId(s, s.stack.events.deadLetterQueue),
  failedBatches: rootId(s, s.stack.events.failedStreamBatches),
});

/** The event source mapping that invokes a function. */
function mappingOf(s: Synthesized, fn: Located): Resource {
  const found = ofType(s, 'AWS::Lambda::EventSourceMapping').filter(
    ({ resource: m }) => JSON.stringify(m.Properties.FunctionName) === JSON.stringify({ Ref: fn.id }),
  );
  expect(found, fn.id).toHaveLength(1);
  return (found[0] as Located).resource;
}

/** The partitions each DynamoDB table or index statement holds a function to, by what it grants. */
function partitionGrants(statements: Statement[]) {
  const tableStatements = statements.filter((st) =>
    asArray(st.Action).some((a) => a.startsWith('dynamodb:') && a !== 'dynamodb:GetRecords'),
  );
  const keysOf = (st: Statement) =>
    [...asArray(st.Condition?.['ForAllValues:StringEquals']?.['dynamodb:LeadingKeys'] as string[])].sort();
  const onIndexes = (st: Statement) => JSON.stringify(st.Resource).includes('/index/');
  return {
    reads: tableStatements
      .filter((st) => !onIndexes(st) && asArray(st.Action).includes('dynamodb:GetItem'))
      .map(keysOf),
    indexReads: tableStatements.filter(onIndexes).map(keysOf),
    writes: tableStatements.filter((st) => asArray(st.Action).some((a) => writeActions.test(a))).map(keysOf),
  };
}

/** How many metrics CloudWatch bills an alarm for: its metric, or each metric its math reads. */
const alarmMetrics = (alarm: Resource) =>
  alarm.Properties.Metrics
    ? (alarm.Properties.Metrics as { MetricStat?: unknown }[]).filter((m) => m.MetricStat).length
    : 1;

describe.each(tenants.map((t) => t.id))('the stack of tenant %s', (tenantId) => {
  const s = () => synthesized.find((x) => x.tenant.id === tenantId) as Synthesized;

  it('serves every route of the route table exactly once, and $default, each by its own function', () => {
    const httpRoutes = ofType(s(), 'AWS::ApiGatewayV2::Route');
    expect(httpRoutes.map(({ resource: r }) => r.Properties.RouteKey).sort()).toEqual(
      allRoutes.map(routeKey).sort(),
    );
    for (const route of allRoutes) {
      const { part, resource: httpRoute } = httpRoutes.find(
        ({ resource: r }) => r.Properties.RouteKey === routeKey(route),
      ) as Located;
      const fn = functionOf(s(), route);
      expect(fn.part, route.id).toBe(part);
      const target = JSON.stringify(httpRoute.Properties.Target);
      const integrationId = /"Ref":"(\w+)"/.exec(target)?.[1] as string;
      const uri = JSON.stringify(resource(part, integrationId).Properties.IntegrationUri);
      expect(uri, route.id).toContain(`"${fn.id}"`);
      // Each on the tenant's one API.
      expect(inRoot(s(), part, httpRoute.Properties.ApiId)).toEqual({
        Ref: theOne(s(), 'AWS::ApiGatewayV2::Api').id,
      });
    }
  });

  it("puts each area's routes in a nested stack of their own, and no route in the root stack", () => {
    const { stack, root } = s();
    const areas = [...new Set(allRoutes.map(areaOf))];
    expect([...stack.areas.keys()].sort()).toEqual(areas.sort());
    for (const route of allRoutes) {
      expect(functionOf(s(), route).part.stack, route.id).toBe(stack.areas.get(areaOf(route)));
    }
    expect(Object.values(root.resources).filter((r) => r.Type === 'AWS::ApiGatewayV2::Route')).toEqual([]);
    expect(Object.values(root.resources).filter((r) => r.Type === 'AWS::CloudFormation::Stack')).toHaveLength(
      areas.length,
    );
  });

  it("grants each route's function only its partitions, writes only to write routes, and no wildcard", () => {
    const readActions = ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query'];
    const tableWrites = [
      'dynamodb:PutItem',
      'dynamodb:UpdateItem',
      'dynamodb:DeleteItem',
      'dynamodb:ConditionCheckItem',
    ];
    for (const route of allRoutes) {
      const statements = statementsOf(functionOf(s(), route));
      const partitions = partitionsRead(route);
      const expected = ['logs:CreateLogStream', 'logs:PutLogEvents'];
      if (partitions.length > 0) expected.push(...readActions, 'kms:Decrypt');
      if (route.writes.length > 0) expected.push(...tableWrites, 'kms:Decrypt');
      if (route.access === 'sign') expected.push('secretsmanager:GetSecretValue', 'kms:Decrypt');
      const counted = partitionsCounted(route);
      if (counted.length > 0) expected.push('dynamodb:UpdateItem', 'kms:Decrypt');
      expect([...actionsOf(statements)].sort(), route.id).toEqual([...new Set(expected)].sort());
      // Token routes write what they keep of the tokens they issue; read routes write nothing.
      expect(route.writes.length > 0, route.id).toBe(route.access !== 'read');
      for (const statement of statements.filter((st) =>
        asArray(st.Action).some((a) => a.startsWith('dynamodb:')),
      )) {
        const granted = asArray(
          statement.Condition?.['ForAllValues:StringEquals']?.['dynamodb:LeadingKeys'] as string[],
        ).sort();
        const actions = asArray(statement.Action);
        const writes = actions.some((a) => writeActions.test(a));
        // Counting a caller's requests is a statement of its own: UpdateItem on the counters alone.
        const counting = actions.length === 1 && actions[0] === 'dynamodb:UpdateItem';
        expect(granted, route.id).toEqual(
          counting ? [...counted].sort() : writes ? [...route.writes].sort() : [...partitions].sort(),
        );
      }
      expect(JSON.stringify(statements), route.id).not.toContain('"*"');
    }
  });

  it('queries the indexes with the same partitions as the table, and every index of the design', () => {
    const { id: tableId } = theOne(s(), 'AWS::DynamoDB::Table');
    for (const route of allRoutes.filter((r) => partitionsRead(r).length > 0)) {
      const fn = functionOf(s(), route);
      const onIndexes = statementsOf(fn).filter((st) => JSON.stringify(st.Resource).includes('/index/'));
      expect(onIndexes, route.id).toHaveLength(1);
      const [statement] = onIndexes as [Statement];
      expect(statement.Action, route.id).toBe('dynamodb:Query');
      expect(
        asArray(statement.Resource as object).map((r) => {
          const [arn, suffix] = (r as { 'Fn::Join': [string, [unknown, string]] })['Fn::Join'][1];
          expect(inRoot(s(), fn.part, arn)).toEqual({ 'Fn::GetAtt': [tableId, 'Arn'] });
          return suffix;
        }),
      ).toEqual(tableDesign.indexes.map((index) => `/index/${index.name}`));
    }
  });

  it('gives every route function the cursor key as a reference CloudFormation resolves, never its value', () => {
    for (const route of allRoutes) {
      const key = JSON.stringify(variablesOf(functionOf(s(), route)).CURSOR_KEY);
      expect(key, route.id).toMatch(/\{\{resolve:secretsmanager:/);
    }
  });

  it('keeps the OAuth clients from every function but those that authenticate clients, the authorization endpoint and the administration API, the signing key from every function but the token function', () => {
    const tokenRoutes = allRoutes.filter((r) => r.access === 'sign');
    expect(tokenRoutes.map((r) => r.id)).toEqual(['create-token']);
    for (const route of allRoutes) {
      const fn = functionOf(s(), route);
      const statements = statementsOf(fn);
      const readsClients = leadingKeysOf(statements).some((k) => k.includes(keys.clientPartition));
      const readsSecret = actionsOf(statements).has('secretsmanager:GetSecretValue');
      expect(
        { readsClients, readsSecret, secretInEnv: 'SIGNING_KEY_SECRET_ARN' in variablesOf(fn) },
        route.id,
      ).toEqual({
        // The authorization endpoint checks the client and its redirect URIs before the sign-in page, and
        // the logout endpoint the client's post_logout_redirect_uris.
        // The administration API manages them.
        readsClients:
          route.auth.kind === 'client' ||
          ['get-authorize', 'get-logout', 'post-logout'].includes(route.id) ||
          route.handler.startsWith('admin/'),
        readsSecret: route.access === 'sign',
        secretInEnv: route.access === 'sign',
      });
    }
    // The table's private-key partition is for the local run only: no deployed function may read it.
    for (const fn of ofType(s(), 'AWS::Lambda::Function')) {
      expect(leadingKeysOf(statementsOf(fn)).flat(), fn.id).not.toContain(keys.privateKeyPartition);
    }
  });

  it('lets only write and token routes, the change events’ functions and the deploy-time signing-key resource write; that one only the public keys and its secret', () => {
    // The change events' functions write their own partitions, checked with their grants below.
    const writeRouteFunctions = [
      ...allRoutes.filter((r) => r.access !== 'read').map((r) => functionOf(s(), r)),
      serviceFunction(s(), 'event-stream'),
      serviceFunction(s(), 'event-delivery'),
    ];
    // Counting a caller's requests for its rate limit (UpdateItem on the counters alone) is not writing.
    const counters = [keys.rateWindowPartition, keys.clientUsagePartition];
    const writing = (fn: Located) =>
      statementsOf(fn).filter(
        (st) =>
          JSON.stringify(st.Condition?.['ForAllValues:StringEquals']?.['dynamodb:LeadingKeys'] ?? []) !==
          JSON.stringify(counters),
      );
    const writers = ofType(s(), 'AWS::Lambda::Function').filter(
      (fn) =>
        !writeRouteFunctions.some((w) => w.part === fn.part && w.id === fn.id) &&
        [...actionsOf(writing(fn))].some((a) => writeActions.test(a)),
    );
    expect(writers.map(({ id }) => id)).toHaveLength(1);
    const writer = writers[0] as Located;
    expect(writer.part).toBe(s().root);
    expect(writer.resource.Properties.Description).toMatch(/signing key/);
    const statements = statementsOf(writer);
    expect([...actionsOf(statements)].filter((a) => writeActions.test(a)).sort()).toEqual([
      'dynamodb:PutItem',
      'secretsmanager:PutSecretValue',
    ]);
    expect(leadingKeysOf(statements)).toEqual([[keys.publicKeyPartition]]);
    const secret = signingKeySecret(s());
    const { resource: custom } = theOne(s(), 'Custom::SigningKey');
    expect(custom.Properties.ServiceToken).toEqual({ 'Fn::GetAtt': [writer.id, 'Arn'] });
    expect(custom.Properties.SecretArn).toEqual({ Ref: secret.id });
  });

  it('writes every grant inline on its own role: no managed or separate policy anywhere', () => {
    expect(ofType(s(), 'AWS::IAM::Policy')).toEqual([]);
    expect(ofType(s(), 'AWS::IAM::ManagedPolicy')).toEqual([]);
    const roles = ofType(s(), 'AWS::Lambda::Function').map(
      ({ part, resource: fn }) =>
        `${part.stack.node.path}/${(fn.Properties.Role as { 'Fn::GetAtt': string[] })['Fn::GetAtt'][0]}`,
    );
    expect(new Set(roles).size).toBe(roles.length);
  });

  it('never puts a key value in the template: the secrets are created with generated values', () => {
    const secrets = ofType(s(), 'AWS::SecretsManager::Secret');
    expect(secrets).toHaveLength(2);
    for (const { resource: secret } of secrets) {
      expect(secret.Properties.SecretString).toBeUndefined();
      expect(secret.Properties.GenerateSecretString).toBeDefined();
      expect(secret.Properties.KmsKeyId).toBeDefined();
    }
    for (const { template } of s().parts) {
      expect(JSON.stringify(template.toJSON())).not.toMatch(/"(d|x|y)":"[A-Za-z0-9_-]{40,}"|PRIVATE KEY/);
    }
  });

  it('sets the table as the tenant is production or not', () => {
    const { tenant } = s();
    const { resource: table } = theOne(s(), 'AWS::DynamoDB::Table');
    const keep = tenant.production ? 'Retain' : 'Delete';
    expect(table).toMatchObject({ DeletionPolicy: keep, UpdateReplacePolicy: keep });
    expect(table.Properties).toMatchObject({
      BillingMode: 'PAY_PER_REQUEST',
      DeletionProtectionEnabled: tenant.production,
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      SSESpecification: { SSEEnabled: true, SSEType: 'KMS' },
    });
    expect(theOne(s(), 'AWS::KMS::Key').resource).toMatchObject({ DeletionPolicy: keep });
    for (const { resource: secret } of ofType(s(), 'AWS::SecretsManager::Secret')) {
      expect(secret).toMatchObject({ DeletionPolicy: keep });
    }
  });

  it('builds the table the local run creates: the same keys, every index and projection, the time to live', () => {
    const local = createTableInput('local');
    const { resource: table } = theOne(s(), 'AWS::DynamoDB::Table');
    const byName = <T extends { AttributeName?: string; IndexName?: string }>(list: T[] = []) =>
      [...list].sort((a, b) =>
        String(a.IndexName ?? a.AttributeName).localeCompare(String(b.IndexName ?? b.AttributeName)),
      );
    expect(table.Properties.KeySchema).toEqual(local.KeySchema);
    expect(byName(table.Properties.AttributeDefinitions as [])).toEqual(byName(local.AttributeDefinitions));
    expect(byName(table.Properties.GlobalSecondaryIndexes as [])).toEqual(
      byName(local.GlobalSecondaryIndexes),
    );
    expect(table.Properties.BillingMode).toBe(local.BillingMode);
    // CloudFormation's form of the same stream: its view type, enabled by being there.
    expect(local.StreamSpecification?.StreamEnabled).toBe(true);
    expect(table.Properties.StreamSpecification).toEqual({
      StreamViewType: local.StreamSpecification?.StreamViewType,
    });
    // The local bootstrap enables the same attribute right after creating the table.
    expect(table.Properties.TimeToLiveSpecification).toEqual({
      AttributeName: tableDesign.timeToLiveAttribute,
      Enabled: true,
    });
  });

  it("applies the tenant's throttling, CORS, log retention and address", () => {
    const { tenant } = s();
    const { resource: stage } = theOne(s(), 'AWS::ApiGatewayV2::Stage');
    expect(stage.Properties).toMatchObject({
      StageName: '$default',
      DefaultRouteSettings: {
        ThrottlingRateLimit: tenant.throttling.rateLimit,
        ThrottlingBurstLimit: tenant.throttling.burstLimit,
      },
    });
    const accessLogs = stage.Properties.AccessLogSettings as { DestinationArn: { 'Fn::GetAtt': string[] } };
    expect(resource(s().root, accessLogs.DestinationArn['Fn::GetAtt'][0] as string).Type).toBe(
      'AWS::Logs::LogGroup',
    );
    const { id: apiId, resource: api } = theOne(s(), 'AWS::ApiGatewayV2::Api');
    if (tenant.corsOrigins.length === 0) expect(api.Properties.CorsConfiguration).toBeUndefined();
    else
      expect(api.Properties.CorsConfiguration).toMatchObject({
        AllowOrigins: tenant.corsOrigins,
        AllowMethods: ['GET', 'POST', 'PUT', 'DELETE'],
        AllowHeaders: ['authorization', 'content-type', 'idempotency-key', 'if-match', 'if-none-match'],
        ExposeHeaders: [
          'x-request-id',
          'etag',
          'location',
          'x-total-count',
          'link',
          'idempotent-replayed',
          'retry-after',
          'www-authenticate',
        ],
      });
    for (const { resource: group } of ofType(s(), 'AWS::Logs::LogGroup')) {
      expect(group.Properties.RetentionInDays).toBe(tenant.logRetentionDays);
    }
    const fn = functionOf(s(), routes[0] as Route);
    const baseUrl = inRoot(s(), fn.part, variablesOf(fn).PUBLIC_BASE_URL);
    if (tenant.domain) {
      expect(baseUrl).toBe(`https://${tenant.domain.name}`);
      expect(api.Properties.DisableExecuteApiEndpoint).toBe(true);
      s().root.template.hasResourceProperties('AWS::ApiGatewayV2::DomainName', {
        DomainName: tenant.domain.name,
        DomainNameConfigurations: [
          {
            CertificateArn: tenant.domain.certificateArn,
            SecurityPolicy: 'TLS_1_2',
            EndpointType: 'REGIONAL',
          },
        ],
      });
    } else {
      expect(baseUrl).toEqual({ 'Fn::GetAtt': [apiId, 'ApiEndpoint'] });
    }
  });

  it("hands every route function the tenant's table and token timings, the signing-key refresh only when set", () => {
    const { tenant } = s();
    const { id: tableId } = theOne(s(), 'AWS::DynamoDB::Table');
    for (const route of allRoutes) {
      const fn = functionOf(s(), route);
      const variables = variablesOf(fn);
      expect(inRoot(s(), fn.part, variables.TABLE_NAME), route.id).toEqual({ Ref: tableId });
      expect(variables.TENANT_ID, route.id).toBe(tenant.id);
      expect(variables.ACCESS_TOKEN_TTL_SECONDS, route.id).toBe(String(tenant.tokens.accessTtlSeconds));
      expect(variables.SIGNING_KEY_REFRESH_SECONDS, route.id).toBe(
        tenant.tokens.signingKeyRefreshSeconds === undefined
          ? undefined
          : String(tenant.tokens.signingKeyRefreshSeconds),
      );
    }
  });

  it('keeps on the root stack the outputs the admin CLI and the docs name', () => {
    const { tenant, root, parts } = s();
    const secret = signingKeySecret(s());
    root.template.hasOutput('SigningKeySecretArn', { Value: { Ref: secret.id } });
    root.template.hasOutput('TableName', { Value: { Ref: theOne(s(), 'AWS::DynamoDB::Table').id } });
    root.template.hasOutput('ExportBucketName', { Value: { Ref: theOne(s(), 'AWS::S3::Bucket').id } });
    const outputs = Object.keys(root.template.toJSON().Outputs);
    const queues = eventQueues(s());
    root.template.hasOutput('WebhookDeadLetterQueueUrl', { Value: { Ref: queues.deadLetters } });
    root.template.hasOutput('FailedStreamBatchesQueueUrl', { Value: { Ref: queues.failedBatches } });
    expect(outputs).toEqual(
      expect.arrayContaining(['ApiUrl', 'TableName', 'SigningKeySecretArn', 'ExportBucketName']),
    );
    expect(outputs.includes('DomainTarget')).toBe(tenant.domain !== undefined);
    for (const nested of parts.slice(1)) expect(nested.template.toJSON().Outputs).toBeUndefined();
  });

  it('runs every function on nodejs22.x, arm64, with source maps, logging JSON to the tenant’s one log group', () => {
    const { id: logsId, resource: group } = functionLogGroup(s());
    expect(group).toMatchObject({
      DeletionPolicy: s().tenant.production ? 'Retain' : 'Delete',
    });
    const functions = ofType(s(), 'AWS::Lambda::Function');
    // The routes, the signing-key resource, the scheduled export, the audit forwarder and the change
    // events' stream and delivery functions.
    expect(functions).toHaveLength(allRoutes.length + 5);
    for (const fn of functions) {
      const { part, id, resource: r } = fn;
      expect(r.Properties, id).toMatchObject({
        Runtime: 'nodejs22.x',
        Architectures: ['arm64'],
        Environment: { Variables: expect.objectContaining({ NODE_OPTIONS: '--enable-source-maps' }) },
        // platform.report lines are INFO: the failure metric needs them.
        LoggingConfig: { LogFormat: 'JSON', SystemLogLevel: 'INFO' },
      });
      const logging = r.Properties.LoggingConfig as { LogGroup: unknown };
      expect(inRoot(s(), part, logging.LogGroup), id).toEqual({ Ref: logsId });
      const logStatement = statementsOf(fn).find((st) => asArray(st.Action).includes('logs:PutLogEvents'));
      expect(inRoot(s(), part, logStatement?.Resource), id).toEqual({ 'Fn::GetAtt': [logsId, 'Arn'] });
    }
  });

  it('alarms on any failed function, the 5xx rate, throttles of the shared concurrency pool, an export that could not start and dead-lettered change events, with seven alarm metrics in all', () => {
    const { tenant } = s();
    const alarms = ofType(s(), 'AWS::CloudWatch::Alarm').map(({ resource: a }) => a);
    const { id: topicId } = theOne(s(), 'AWS::SNS::Topic');
    for (const alarm of alarms) expect(alarm.Properties.AlarmActions).toEqual([{ Ref: topicId }]);
    const by = (metricName: string) => alarms.filter((a) => a.Properties.MetricName === metricName);

    // Every function logs to the one group, so one filter and one alarm watch them all.
    const { resource: filter } = theOne(s(), 'AWS::Logs::MetricFilter');
    expect(filter.Properties).toEqual({
      LogGroupName: { Ref: functionLogGroup(s()).id },
      FilterPattern: failedInvocationPattern.logPatternString,
      MetricTransformations: [
        {
          MetricName: 'FunctionFailures',
          MetricNamespace: failureMetricNamespace(tenant.id),
          MetricValue: '1',
        },
      ],
    });
    expect(by('FunctionFailures')).toHaveLength(1);
    expect(by('FunctionFailures')[0]?.Properties).toMatchObject({
      Namespace: failureMetricNamespace(tenant.id),
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
    });

    expect(
      alarms.filter((a) => String(JSON.stringify(a.Properties.Metrics)).includes('"MetricName":"5xx"')),
    ).toHaveLength(1);
    const throttles = by('Throttles');
    expect(throttles).toHaveLength(1);
    expect(throttles[0]?.Properties.Dimensions).toBeUndefined();
    expect(by('FailedInvocations')).toHaveLength(1);
    // Any message waiting in either queue where change events end, a missing point counting as none.
    const queues = eventQueues(s());
    const deadLetters = alarms.filter((a) =>
      JSON.stringify(a.Properties.Metrics ?? []).includes('ApproximateNumberOfMessagesVisible'),
    );
    expect(deadLetters).toHaveLength(1);
    const metrics = deadLetters[0]?.Properties.Metrics as {
      Expression?: string;
      MetricStat?: { Metric: { Dimensions: unknown[] }; Stat: string };
    }[];
    expect(metrics.find((m) => m.Expression)?.Expression).toBe('FILL(q0, 0) + FILL(q1, 0)');
    expect(
      metrics.filter((m) => m.MetricStat).map((m) => [m.MetricStat?.Metric.Dimensions, m.MetricStat?.Stat]),
    ).toEqual(
      [queues.deadLetters, queues.failedBatches].map((id) => [
        [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [id, 'QueueName'] } }],
        'Maximum',
      ]),
    );
    expect(deadLetters[0]?.Properties).toMatchObject({
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
    });
    // No alarm per function: what a tenant pays for alarms does not grow with its routes.
    expect(alarms).toHaveLength(5);
    expect(alarms.reduce((sum, alarm) => sum + alarmMetrics(alarm), 0)).toBe(7);
  });

  it('keeps exports in a private, versioned, TLS-only bucket under the tenant key, kept for its retention', () => {
    const { tenant } = s();
    const { resource: bucket } = theOne(s(), 'AWS::S3::Bucket');
    const { id: keyId } = theOne(s(), 'AWS::KMS::Key');
    expect(bucket).toMatchObject({ DeletionPolicy: 'Retain' });
    expect(bucket.Properties).toMatchObject({
      BucketEncryption: {
        ServerSideEncryptionConfiguration: [
          {
            ServerSideEncryptionByDefault: {
              SSEAlgorithm: 'aws:kms',
              KMSMasterKeyID: { 'Fn::GetAtt': [keyId, 'Arn'] },
            },
          },
        ],
      },
      PublicAccessBlockConfiguration: {
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      },
      VersioningConfiguration: { Status: 'Enabled' },
      LifecycleConfiguration: {
        Rules: [
          expect.objectContaining({
            Status: 'Enabled',
            ExpirationInDays: tenant.exports.retentionDays,
            AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 },
          }),
        ],
      },
    });
    const { resource: policy } = theOne(s(), 'AWS::S3::BucketPolicy');
    expect(policy.Properties.PolicyDocument).toMatchObject({
      Statement: [
        {
          Action: 's3:*',
          Effect: 'Deny',
          Principal: { AWS: '*' },
          Condition: { Bool: { 'aws:SecureTransport': 'false' } },
        },
      ],
    });
  });

  it('runs the export on the tenant schedule, reading its partitions only and writing under exports/ only', () => {
    const { tenant } = s();
    const exportFunction = ofType(s(), 'AWS::Lambda::Function').find(({ resource: r }) =>
      String(r.Properties.Description).startsWith('scheduled-export: '),
    ) as Located;
    expect(exportFunction.part).toBe(s().root);
    expect(exportFunction.resource.Properties).toMatchObject({ Timeout: 900 });
    const statements = statementsOf(exportFunction);
    expect([...actionsOf(statements)].sort()).toEqual([
      'dynamodb:GetItem',
      'dynamodb:Query',
      'kms:Decrypt',
      'kms:GenerateDataKey',
      'logs:CreateLogStream',
      'logs:PutLogEvents',
      's3:AbortMultipartUpload',
      's3:GetObject',
      's3:ListBucket',
      's3:PutObject',
    ]);
    expect(leadingKeysOf(statements).map((k) => [...k].sort())).toEqual([
      [
        ...recordGroups.map(keys.recordPartition),
        keys.counterPartition,
        ...recordGroups.map(keys.deletionPartition),
        keys.userPartition,
      ].sort(),
    ]);
    const { id: bucketId } = theOne(s(), 'AWS::S3::Bucket');
    for (const statement of statements.filter((st) => asArray(st.Action).some((a) => a.startsWith('s3:')))) {
      const objects = asArray(statement.Action).some((a) => a !== 's3:ListBucket');
      expect(statement.Resource).toEqual(
        objects
          ? { 'Fn::Join': ['', [{ 'Fn::GetAtt': [bucketId, 'Arn'] }, '/exports/*']] }
          : { 'Fn::GetAtt': [bucketId, 'Arn'] },
      );
      if (!objects) expect(statement.Condition).toEqual({ StringLike: { 's3:prefix': 'exports/*' } });
    }
    const cron = eventBridgeCron(tenant.exports.schedule);
    const day = cron.day ?? (cron.weekDay ? '?' : '*');
    const { id: ruleId, resource: rule } = theOne(s(), 'AWS::Events::Rule');
    expect(rule.Properties).toMatchObject({
      ScheduleExpression: `cron(${cron.minute} ${cron.hour} ${day} ${cron.month} ${cron.weekDay ?? '?'} *)`,
      State: 'ENABLED',
      Targets: [expect.objectContaining({ Arn: { 'Fn::GetAtt': [exportFunction.id, 'Arn'] } })],
    });
    const notStarted = ofType(s(), 'AWS::CloudWatch::Alarm').filter(
      ({ resource: a }) => a.Properties.MetricName === 'FailedInvocations',
    );
    expect(notStarted.map(({ resource: a }) => a.Properties.Dimensions)).toEqual([
      [{ Name: 'RuleName', Value: { Ref: ruleId } }],
    ]);
  });

  it("keeps the audit trail in a log group of its own, with the tenant's retention, fed by the function log group", () => {
    const { tenant, root } = s();
    const { id: filterId, resource: subscription } = theOne(s(), 'AWS::Logs::SubscriptionFilter');
    expect(subscription.Properties).toMatchObject({
      LogGroupName: { Ref: functionLogGroup(s()).id },
      FilterPattern: AUDIT_FILTER_PATTERN,
    });
    const destination = subscription.Properties.DestinationArn as { 'Fn::GetAtt': string[] };
    const forwarderId = destination['Fn::GetAtt'][0] as string;
    const forwarder = ofType(s(), 'AWS::Lambda::Function').find((fn) => fn.id === forwarderId);
    expect(forwarder, filterId).toBeDefined();
    if (!forwarder) return;
    const auditGroup = (variablesOf(forwarder).AUDIT_LOG_GROUP as { Ref: string }).Ref;
    expect(resource(root, auditGroup)).toMatchObject({
      Type: 'AWS::Logs::LogGroup',
      Properties: { RetentionInDays: tenant.logRetentionDays },
      DeletionPolicy: tenant.production ? 'Retain' : 'Delete',
    });
    expect(auditGroup).not.toBe(functionLogGroup(s()).id);
    // The forwarder writes its own log and the audit group, nothing else.
    expect(statementsOf(forwarder).map((st) => [asArray(st.Action), st.Resource])).toEqual([
      [['logs:CreateLogStream', 'logs:PutLogEvents'], { 'Fn::GetAtt': [functionLogGroup(s()).id, 'Arn'] }],
      [['logs:CreateLogStream', 'logs:PutLogEvents'], { 'Fn::GetAtt': [auditGroup, 'Arn'] }],
    ]);
    // CloudWatch Logs may invoke it, for this log group only.
    const permission = ofType(s(), 'AWS::Lambda::Permission').find(
      ({ resource: p }) =>
        (p.Properties.FunctionName as { 'Fn::GetAtt'?: string[] })['Fn::GetAtt']?.[0] === forwarderId,
    );
    expect(permission?.resource.Properties).toMatchObject({
      Principal: 'logs.amazonaws.com',
      SourceArn: { 'Fn::GetAtt': [functionLogGroup(s()).id, 'Arn'] },
    });
    root.template.hasOutput('AuditLogGroupName', { Value: { Ref: auditGroup } });
  });

  it('traces every function with X-Ray exactly when the tenant says so, adding no resource', () => {
    const { tenant } = s();
    for (const fn of ofType(s(), 'AWS::Lambda::Function')) {
      const xray = allStatementsOf(fn).filter(isTracingGrant);
      if (tenant.tracing) {
        expect(fn.resource.Properties.TracingConfig, fn.id).toEqual({ Mode: 'Active' });
        expect(xray, fn.id).toEqual([
          expect.objectContaining({
            Action: ['xray:PutTraceSegments', 'xray:PutTelemetryRecords'],
            Resource: '*',
          }),
        ]);
      } else {
        expect(fn.resource.Properties.TracingConfig, fn.id).toBeUndefined();
        expect(xray, fn.id).toEqual([]);
      }
    }
    expect(ofType(s(), 'AWS::IAM::Policy')).toEqual([]);
  });

  it('feeds the change events from the table’s stream, filtered to the partitions of events and replays', () => {
    const { id: tableId, resource: table } = theOne(s(), 'AWS::DynamoDB::Table');
    // The old image tells a record's creation from its change (shared/events/change-events.ts).
    expect(table.Properties.StreamSpecification).toEqual({ StreamViewType: 'NEW_AND_OLD_IMAGES' });
    const fn = serviceFunction(s(), 'event-stream');
    expect(fn.part).toBe(s().root);
    const mapping = mappingOf(s(), fn);
    expect(mapping.Properties).toMatchObject({
      EventSourceArn: { 'Fn::GetAtt': [tableId, 'StreamArn'] },
      StartingPosition: 'TRIM_HORIZON',
      BatchSize: STREAM_BATCH_SIZE,
      BisectBatchOnFunctionError: true,
      MaximumRetryAttempts: STREAM_RETRY_ATTEMPTS,
      DestinationConfig: {
        OnFailure: { Destination: { 'Fn::GetAtt': [eventQueues(s()).failedBatches, 'Arn'] } },
      },
    });
    const filters = (mapping.Properties.FilterCriteria as { Filters: { Pattern: string }[] }).Filters;
    expect(filters.map((f) => JSON.parse(f.Pattern))).toEqual([
      { dynamodb: { Keys: { pk: { S: [...streamPartitions] } } } },
    ]);
    expect(variablesOf(fn)).toEqual({
      TABLE_NAME: { Ref: tableId },
      TENANT_ID: s().tenant.id,
      LOG_LEVEL: 'info',
      DELIVERY_QUEUE_URL: { Ref: eventQueues(s()).delivery },
      NODE_OPTIONS: '--enable-source-maps',
    });
  });

  it('queues deliveries on a FIFO queue under the tenant key, TLS only, dead-lettered after WEBHOOK_ATTEMPTS receives', () => {
    const { tenant, root } = s();
    const { id: keyId } = theOne(s(), 'AWS::KMS::Key');
    const queues = eventQueues(s());
    const keep = tenant.production ? 'Retain' : 'Delete';
    const fortnight = 14 * 24 * 3600;
    const encrypted = { KmsMasterKeyId: { 'Fn::GetAtt': [keyId, 'Arn'] }, MessageRetentionPeriod: fortnight };
    const delivery = serviceFunction(s(), 'event-delivery');
    expect(delivery.resource.Properties.Timeout).toBe(DELIVERY_TIMEOUT.toSeconds());
    const queue = resource(root, queues.delivery);
    expect(queue).toMatchObject({ DeletionPolicy: keep });
    expect(queue.Properties).toMatchObject({
      ...encrypted,
      FifoQueue: true,
      RedrivePolicy: {
        deadLetterTargetArn: { 'Fn::GetAtt': [queues.deadLetters, 'Arn'] },
        maxReceiveCount: WEBHOOK_ATTEMPTS,
      },
    });
    // Lambda's advice for a polled queue: at least six times the function's timeout.
    expect(queue.Properties.VisibilityTimeout).toBeGreaterThanOrEqual(
      6 * Number(delivery.resource.Properties.Timeout),
    );
    expect(resource(root, queues.deadLetters)).toMatchObject({
      DeletionPolicy: keep,
      Properties: { ...encrypted, FifoQueue: true },
    });
    expect(resource(root, queues.deadLetters).Properties.RedrivePolicy).toBeUndefined();
    // Lambda writes what it knows of a failed stream batch there: a standard queue, as destinations are.
    expect(resource(root, queues.failedBatches)).toMatchObject({
      DeletionPolicy: keep,
      Properties: encrypted,
    });
    expect(resource(root, queues.failedBatches).Properties.FifoQueue).toBeUndefined();
    expect(
      ofType(s(), 'AWS::SQS::Queue')
        .map(({ id }) => id)
        .sort(),
    ).toEqual(Object.values(queues).sort());
    const policies = ofType(s(), 'AWS::SQS::QueuePolicy').map(({ resource: p }) => p.Properties);
    for (const id of Object.values(queues)) {
      expect(policies, id).toContainEqual({
        Queues: [{ Ref: id }],
        PolicyDocument: {
          Version: '2012-10-17',
          Statement: [
            {
              Action: 'sqs:*',
              Effect: 'Deny',
              Principal: { AWS: '*' },
              Resource: { 'Fn::GetAtt': [id, 'Arn'] },
              Condition: { Bool: { 'aws:SecureTransport': 'false' } },
            },
          ],
        },
      });
    }
  });

  it('hands the delivery function one queued delivery at a time, reporting a failed one alone', () => {
    const fn = serviceFunction(s(), 'event-delivery');
    expect(fn.part).toBe(s().root);
    expect(mappingOf(s(), fn).Properties).toMatchObject({
      EventSourceArn: { 'Fn::GetAtt': [eventQueues(s()).delivery, 'Arn'] },
      BatchSize: 1,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
    expect(ofType(s(), 'AWS::Lambda::EventSourceMapping')).toHaveLength(2);
    expect(variablesOf(fn)).toEqual({
      TABLE_NAME: { Ref: theOne(s(), 'AWS::DynamoDB::Table').id },
      TENANT_ID: s().tenant.id,
      LOG_LEVEL: 'info',
      NODE_OPTIONS: '--enable-source-maps',
      // It hides a failed delivery in its queue for the backoff.
      DELIVERY_QUEUE_URL: { Ref: eventQueues(s()).delivery },
    });
  });

  it('grants the change events’ functions their partitions only, their stream or queue, and the key through DynamoDB and SQS', () => {
    const { id: tableId } = theOne(s(), 'AWS::DynamoDB::Table');
    const { id: keyId } = theOne(s(), 'AWS::KMS::Key');
    const queues = eventQueues(s());
    const arn = (id: string) => ({ 'Fn::GetAtt': [id, 'Arn'] });
    const sorted = (partitions: readonly string[]) => [...partitions].sort();
    const keyVia = (service: string) => ({
      StringEquals: { 'kms:ViaService': `${service}.${s().tenant.region}.amazonaws.com` },
    });
    const nonTable = (statements: Statement[]) =>
      statements
        .filter((st) => !st.Condition?.['ForAllValues:StringEquals'])
        .map((st) => ({ Action: st.Action, Resource: st.Resource, Condition: st.Condition }));
    const logs = {
      Action: ['logs:CreateLogStream', 'logs:PutLogEvents'],
      Resource: arn(functionLogGroup(s()).id),
      Condition: undefined,
    };

    const stream = statementsOf(serviceFunction(s(), 'event-stream'));
    expect(partitionGrants(stream)).toEqual({
      reads: [sorted(streamFunctionAccess.reads)],
      // Its reads name their partitions; it queries no index.
      indexReads: [],
      writes: [sorted(streamFunctionAccess.writes)],
    });
    expect(actionsOf(stream)).toContain('dynamodb:BatchWriteItem');
    expect(nonTable(stream)).toEqual([
      logs,
      { Action: 'kms:Decrypt', Resource: arn(keyId), Condition: keyVia('dynamodb') },
      {
        Action: [
          'dynamodb:DescribeStream',
          'dynamodb:GetRecords',
          'dynamodb:GetShardIterator',
          'dynamodb:ListStreams',
        ],
        Resource: { 'Fn::GetAtt': [tableId, 'StreamArn'] },
        Condition: undefined,
      },
      {
        Action: 'sqs:SendMessage',
        Resource: [arn(queues.delivery), arn(queues.failedBatches)],
        Condition: undefined,
      },
      { Action: ['kms:GenerateDataKey', 'kms:Decrypt'], Resource: arn(keyId), Condition: keyVia('sqs') },
    ]);

    const delivery = statementsOf(serviceFunction(s(), 'event-delivery'));
    expect(partitionGrants(delivery)).toEqual({
      reads: [sorted(deliveryFunctionAccess.reads)],
      indexReads: [sorted(deliveryFunctionAccess.reads)],
      writes: [sorted(deliveryFunctionAccess.writes)],
    });
    expect(actionsOf(delivery)).not.toContain('dynamodb:BatchWriteItem');
    expect(nonTable(delivery)).toEqual([
      logs,
      { Action: 'kms:Decrypt', Resource: arn(keyId), Condition: keyVia('dynamodb') },
      {
        Action: [
          'sqs:ReceiveMessage',
          'sqs:DeleteMessage',
          'sqs:GetQueueAttributes',
          'sqs:ChangeMessageVisibility',
        ],
        Resource: arn(queues.delivery),
        Condition: undefined,
      },
      { Action: 'kms:Decrypt', Resource: arn(keyId), Condition: keyVia('sqs') },
    ]);
    for (const statements of [stream, delivery]) {
      expect(JSON.stringify(statements)).not.toContain('"*"');
      expect(JSON.stringify(statements)).not.toContain(keys.privateKeyPartition);
    }
  });

  it(`keeps every template, root and nested, under ${RESOURCE_BUDGET} resources`, () => {
    for (const { stack, resources } of s().parts) {
      expect(Object.keys(resources).length, stack.node.path).toBeLessThanOrEqual(RESOURCE_BUDGET);
    }
  });

  it('has no unacknowledged AwsSolutions finding, in the root or a nested stack', () => {
    const report = new AwsSolutionsChecks().validateScope(s().stack);
    expect(report.violations.map((v) => `${v.ruleName}: ${v.violatingResources[0]?.constructPath}`)).toEqual(
      [],
    );
  });
});

/** The log group the tenant's functions write to: the one the failure metric filter reads. */
function functionLogGroup(s: Synthesized): Located {
  const { resource: filter } = theOne(s, 'AWS::Logs::MetricFilter');
  const id = (filter.Properties.LogGroupName as { Ref: string }).Ref;
  return { part: s.root, id, resource: resource(s.root, id) };
}

describe('the table design', () => {
  const sourceDirs = ['shared', 'functions', 'infra'].map((dir) =>
    fileURLToPath(new URL(`../${dir}/`, import.meta.url)),
  );
  const sources = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory()
        ? sources(join(dir, entry.name))
        : entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')
          ? [join(dir, entry.name)]
          : [],
    );
  /** The two modules that define the table rather than query it. */
  const definitions = ['../shared/data/table.ts', './tenant-table.ts'].map((path) =>
    fileURLToPath(new URL(path, import.meta.url)),
  );

  it('is where every query finds its index, and every index a query names is in each tenant template', () => {
    const named = new Set<string>();
    for (const file of sourceDirs.flatMap(sources).filter((f) => !definitions.includes(f))) {
      for (const match of readFileSync(file, 'utf8').matchAll(/\bIndexName\b[^,\n}]*/g)) {
        const where = `${relative(fileURLToPath(new URL('..', import.meta.url)), file)}: ${match[0]}`;
        // A literal or a variable here could name an index no table has.
        const index = /^IndexName:\s*tableDesign\.(\w+)\.name$/.exec(match[0].trim())?.[1];
        expect(index, `${where} should read IndexName: tableDesign.<index>.name`).toBeDefined();
        const design = tableDesign[index as keyof typeof tableDesign] as { name?: string };
        expect(design?.name, where).toBeTypeOf('string');
        named.add(design.name as string);
      }
    }
    expect(named.size).toBeGreaterThan(0);
    for (const s of synthesized) {
      const { resource: table } = theOne(s, 'AWS::DynamoDB::Table');
      const indexes = (table.Properties.GlobalSecondaryIndexes as { IndexName: string }[]).map(
        (i) => i.IndexName,
      );
      for (const name of named) expect(indexes, `${s.tenant.id}: ${name}`).toContain(name);
    }
  });
});

describe('two tenants', () => {
  /** Names and ARNs written literally into a template: what two stacks could collide on or share. */
  function physicalIdentifiers(s: Synthesized): Set<string> {
    const found = new Set<string>();
    const nameProps = /^(TableName|FunctionName|RoleName|LogGroupName|TopicName|AliasName|Name|DomainName)$/;
    const walk = (value: unknown, prop: string) => {
      if (typeof value === 'string') {
        if (nameProps.test(prop) || value.startsWith('arn:')) found.add(value);
      } else if (Array.isArray(value)) {
        for (const v of value) walk(v, prop);
      } else if (value && typeof value === 'object') {
        // References and joins resolve to this stack's own resources; metric dimensions are not names.
        const intrinsic = Object.keys(value).some((k) => k === 'Ref' || k.startsWith('Fn::'));
        if (intrinsic) return;
        for (const [k, v] of Object.entries(value)) if (k !== 'Dimensions') walk(v, k);
      }
    };
    // Code is the exception: every tenant runs the same bundles, each from its own account's assets.
    for (const r of s.parts.flatMap((part) => Object.values(part.resources))) {
      walk({ ...r.Properties, Code: undefined }, '');
    }
    return found;
  }

  it('share no name, ARN, secret, key or table, and import nothing from each other', () => {
    const [a, b] = synthesized as [Synthesized, Synthesized];
    const shared = [...physicalIdentifiers(a)].filter((id) => physicalIdentifiers(b).has(id));
    expect(shared).toEqual([]);
    for (const s of [a, b]) {
      const other = s === a ? b : a;
      for (const { template } of s.parts) {
        const text = JSON.stringify(template.toJSON());
        expect(text).not.toContain('Fn::ImportValue');
        expect(text).not.toContain(stackName(other.tenant.id));
        expect(text).not.toContain(`"TENANT_ID":"${other.tenant.id}"`);
        expect(text).not.toContain(failureMetricNamespace(other.tenant.id));
      }
      for (const type of ['AWS::DynamoDB::Table', 'AWS::KMS::Key']) {
        expect(ofType(s, type), type).toHaveLength(1);
      }
      expect(ofType(s, 'AWS::SecretsManager::Secret')).toHaveLength(2);
    }
  });

  it('include one that sets the signing-key refresh and one that does not, so both are checked', () => {
    const set = synthesized.map((t) => t.tenant.tokens.signingKeyRefreshSeconds !== undefined);
    expect(set).toContain(true);
    expect(set).toContain(false);
  });

  it('include a production tenant and one that is not, so both table settings are checked', () => {
    expect(new Set(tenants.map((t) => t.production))).toEqual(new Set([true, false]));
  });
});

describe('room to grow', () => {
  /** Today's routes three times over: each row again under /v2 and /v3, served by the same handlers. */
  const tripled: RouteTable = {
    routes: [1, 2, 3].flatMap((copy) =>
      routes.map((route) =>
        copy === 1 ? route : { ...route, id: `${route.id}-v${copy}`, path: `/v${copy}${route.path}` },
      ),
    ),
    fallbackRoute,
  };
  let grown: Synthesized;

  beforeAll(() => {
    // The tenant with the most root resources (a custom domain and an alarm subscription).
    const largest = tenants.find((t) => t.domain && t.alarmEmail) as Tenant;
    [grown] = synthesize([largest], tripled) as [Synthesized];
  }, 120_000);

  it(`holds three times today's routes with every template under ${RESOURCE_BUDGET} resources`, () => {
    expect(tripled.routes).toHaveLength(3 * routes.length);
    expect(ofType(grown, 'AWS::ApiGatewayV2::Route')).toHaveLength(tripled.routes.length + 1);
    expect(ofType(grown, 'AWS::Lambda::Function')).toHaveLength(tripled.routes.length + 6);
    const counts = grown.parts.map(({ stack, resources }) => ({
      template: stack.node.path,
      resources: Object.keys(resources).length,
    }));
    for (const { template, resources } of counts) {
      expect(resources, template).toBeLessThanOrEqual(RESOURCE_BUDGET);
    }
    // The root does not grow with routes at all: same areas, same resources.
    const today = synthesized.find((s) => s.tenant.id === grown.tenant.id) as Synthesized;
    expect(Object.keys(grown.root.resources).length).toBe(Object.keys(today.root.resources).length);
  });
});

describe('acknowledged findings', () => {
  it('each carry a written reason', () => {
    for (const { id, reason } of Object.values(acceptedFindings)) {
      expect(id).toMatch(/^AwsSolutions-/);
      expect(reason.length, id).toBeGreaterThan(80);
    }
  });
});
