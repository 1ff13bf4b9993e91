// Checks the synthesized tenant stacks against what the deployment promises: the route table served
// exactly, least privilege per function, the table the local run makes, table settings per production
// flag, tenants sharing nothing, and no unacknowledged cdk-nag finding. Bundling is skipped; the bundle
// report covers the bundles.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { beforeAll, describe, expect, it } from 'vitest';
import { keys } from '../shared/data/keys';
import { createTableInput, tableDesign } from '../shared/data/table';
import { recordGroups } from '../shared/domain/groups';
import { eventBridgeCron } from '../shared/exports/schedule';
import { fallbackRoute, partitionsRead, type Route, routes } from '../shared/routes';
import { acceptedFindings } from './nag-acknowledgements';
import { addTenantStacks, type SchoolStack, stackName } from './school-stack';
import { type Tenant, tenants } from './tenants';

type Resource = { Type: string; Properties: Record<string, unknown> } & Record<string, unknown>;
type Statement = {
  Action: string | string[];
  Resource: unknown;
  Condition?: Record<string, Record<string, unknown>>;
};

interface Synthesized {
  tenant: Tenant;
  stack: SchoolStack;
  template: Template;
  resources: Record<string, Resource>;
}

const allRoutes = [...routes, fallbackRoute];
const routeKey = (route: Route) => (route.path === '$default' ? '$default' : `${route.method} ${route.path}`);
const asArray = <T>(value: T | T[]): T[] => (Array.isArray(value) ? value : [value]);
const writeActions =
  /^dynamodb:(Put|Update|Delete|ConditionCheck|BatchWrite|TransactWrite)|^secretsmanager:(Put|Update|Delete)/;

let synthesized: Synthesized[];

beforeAll(() => {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  const stacks = addTenantStacks(app, tenants);
  synthesized = stacks.map((stack, i) => {
    const template = Template.fromStack(stack);
    return { tenant: tenants[i] as Tenant, stack, template, resources: template.toJSON().Resources };
  });
});

function resource(s: Synthesized, id: string): Resource {
  const found = s.resources[id];
  if (!found) throw new Error(`no resource ${id}`);
  return found;
}

function ofType({ resources }: Synthesized, type: string): [string, Resource][] {
  return Object.entries(resources).filter(([, r]) => r.Type === type);
}

/** The logical id of the function serving a route, found by the route id its description starts with. */
function functionOf(s: Synthesized, route: Route): string {
  const found = ofType(s, 'AWS::Lambda::Function').filter(([, r]) =>
    String(r.Properties.Description).startsWith(`${route.id}: `),
  );
  expect(found, route.id).toHaveLength(1);
  return (found[0] as [string, Resource])[0];
}

/** Every statement of every policy attached to a function's role. */
function statementsOf(s: Synthesized, functionId: string): Statement[] {
  const role = (resource(s, functionId).Properties.Role as { 'Fn::GetAtt': string[] })['Fn::GetAtt'][0];
  expect(resource(s, role as string).Properties.ManagedPolicyArns).toBeUndefined();
  return ofType(s, 'AWS::IAM::Policy')
    .filter(([, p]) => (p.Properties.Roles as { Ref: string }[]).some((r) => r.Ref === role))
    .flatMap(([, p]) => (p.Properties.PolicyDocument as { Statement: Statement[] }).Statement);
}

const actionsOf = (statements: Statement[]) => new Set(statements.flatMap((st) => asArray(st.Action)));

function leadingKeysOf(statements: Statement[]): string[][] {
  return statements
    .filter((st) => asArray(st.Action).some((a) => a.startsWith('dynamodb:')))
    .map((st) => asArray(st.Condition?.['ForAllValues:StringEquals']?.['dynamodb:LeadingKeys'] as string[]));
}

describe.each(tenants.map((t) => t.id))('the stack of tenant %s', (tenantId) => {
  const s = () => synthesized.find((x) => x.tenant.id === tenantId) as Synthesized;

  it('serves every route of the route table exactly once, and $default, each by its own function', () => {
    const httpRoutes = ofType(s(), 'AWS::ApiGatewayV2::Route');
    expect(httpRoutes.map(([, r]) => r.Properties.RouteKey).sort()).toEqual(allRoutes.map(routeKey).sort());
    for (const route of allRoutes) {
      const [, httpRoute] = httpRoutes.find(([, r]) => r.Properties.RouteKey === routeKey(route)) as [
        string,
        Resource,
      ];
      const target = JSON.stringify(httpRoute.Properties.Target);
      const integrationId = /"Ref":"(\w+)"/.exec(target)?.[1] as string;
      const uri = JSON.stringify(s().resources[integrationId]?.Properties.IntegrationUri);
      expect(uri, route.id).toContain(`"${functionOf(s(), route)}"`);
    }
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
      const statements = statementsOf(s(), functionOf(s(), route));
      const partitions = partitionsRead(route);
      const expected = ['logs:CreateLogStream', 'logs:PutLogEvents'];
      if (partitions.length > 0) expected.push(...readActions, 'kms:Decrypt');
      if (route.writes.length > 0) expected.push(...tableWrites, 'kms:Decrypt');
      if (route.access === 'sign') expected.push('secretsmanager:GetSecretValue', 'kms:Decrypt');
      expect([...actionsOf(statements)].sort(), route.id).toEqual([...new Set(expected)].sort());
      // Token routes write what they keep of the tokens they issue; read routes write nothing.
      expect(route.writes.length > 0, route.id).toBe(route.access !== 'read');
      for (const statement of statements.filter((st) =>
        asArray(st.Action).some((a) => a.startsWith('dynamodb:')),
      )) {
        const granted = asArray(
          statement.Condition?.['ForAllValues:StringEquals']?.['dynamodb:LeadingKeys'] as string[],
        ).sort();
        const writes = asArray(statement.Action).some((a) => writeActions.test(a));
        expect(granted, route.id).toEqual(writes ? [...route.writes].sort() : [...partitions].sort());
      }
      expect(JSON.stringify(statements), route.id).not.toContain('"*"');
    }
  });

  it('keeps the OAuth clients from every function but those that authenticate clients and the authorization endpoint, the signing key from every function but the token function', () => {
    const tokenRoutes = allRoutes.filter((r) => r.access === 'sign');
    expect(tokenRoutes.map((r) => r.id)).toEqual(['create-token']);
    for (const route of allRoutes) {
      const statements = statementsOf(s(), functionOf(s(), route));
      const readsClients = leadingKeysOf(statements).some((k) => k.includes(keys.clientPartition));
      const readsSecret = actionsOf(statements).has('secretsmanager:GetSecretValue');
      const env = (resource(s(), functionOf(s(), route)).Properties.Environment as { Variables: object })
        .Variables;
      expect({ readsClients, readsSecret, secretInEnv: 'SIGNING_KEY_SECRET_ARN' in env }, route.id).toEqual({
        // The authorization endpoint checks the client and its redirect URIs before the sign-in page.
        readsClients: route.auth.kind === 'client' || route.id === 'get-authorize',
        readsSecret: route.access === 'sign',
        secretInEnv: route.access === 'sign',
      });
    }
    // The table's private-key partition is for the local run only: no deployed function may read it.
    for (const [id] of ofType(s(), 'AWS::Lambda::Function')) {
      expect(leadingKeysOf(statementsOf(s(), id)).flat(), id).not.toContain(keys.privateKeyPartition);
    }
  });

  it('lets only write and token routes and the deploy-time signing-key resource write; that one only the public keys and its secret', () => {
    const writeRouteFunctions = new Set(
      allRoutes.filter((r) => r.access !== 'read').map((r) => functionOf(s(), r)),
    );
    const writers = ofType(s(), 'AWS::Lambda::Function').filter(
      ([id]) =>
        !writeRouteFunctions.has(id) &&
        [...actionsOf(statementsOf(s(), id))].some((a) => writeActions.test(a)),
    );
    expect(writers.map(([id]) => id)).toHaveLength(1);
    const [writerId, writer] = writers[0] as [string, Resource];
    expect(writer.Properties.Description).toMatch(/signing key/);
    const statements = statementsOf(s(), writerId);
    expect([...actionsOf(statements)].filter((a) => writeActions.test(a)).sort()).toEqual([
      'dynamodb:PutItem',
      'secretsmanager:PutSecretValue',
    ]);
    expect(leadingKeysOf(statements)).toEqual([[keys.publicKeyPartition]]);
    const [secretId] = ofType(s(), 'AWS::SecretsManager::Secret')[0] as [string, Resource];
    const [, custom] = ofType(s(), 'Custom::SigningKey')[0] as [string, Resource];
    expect(custom.Properties.ServiceToken).toEqual({ 'Fn::GetAtt': [writerId, 'Arn'] });
    expect(custom.Properties.SecretArn).toEqual({ Ref: secretId });
  });

  it('never puts a key value in the template: the secret is created with a placeholder', () => {
    const [, secret] = ofType(s(), 'AWS::SecretsManager::Secret')[0] as [string, Resource];
    expect(secret.Properties.SecretString).toBeUndefined();
    expect(secret.Properties.GenerateSecretString).toBeDefined();
    expect(secret.Properties.KmsKeyId).toBeDefined();
    const text = JSON.stringify(s().template.toJSON());
    expect(text).not.toMatch(/"(d|x|y)":"[A-Za-z0-9_-]{40,}"|PRIVATE KEY/);
  });

  it('sets the table as the tenant is production or not', () => {
    const { tenant } = s();
    const [, table] = ofType(s(), 'AWS::DynamoDB::Table')[0] as [string, Resource];
    const keep = tenant.production ? 'Retain' : 'Delete';
    expect(table).toMatchObject({ DeletionPolicy: keep, UpdateReplacePolicy: keep });
    expect(table.Properties).toMatchObject({
      BillingMode: 'PAY_PER_REQUEST',
      DeletionProtectionEnabled: tenant.production,
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      SSESpecification: { SSEEnabled: true, SSEType: 'KMS' },
    });
    for (const type of ['AWS::KMS::Key', 'AWS::SecretsManager::Secret']) {
      expect(ofType(s(), type)[0]?.[1], type).toMatchObject({ DeletionPolicy: keep });
    }
  });

  it('builds the table the local run creates: the same keys, every index and projection, the time to live', () => {
    const local = createTableInput('local');
    const [, table] = ofType(s(), 'AWS::DynamoDB::Table')[0] as [string, Resource];
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
    expect(table.Properties.StreamSpecification).toEqual(local.StreamSpecification);
    // The local bootstrap enables the same attribute right after creating the table.
    expect(table.Properties.TimeToLiveSpecification).toEqual({
      AttributeName: tableDesign.timeToLiveAttribute,
      Enabled: true,
    });
  });

  it("applies the tenant's throttling, CORS, log retention and address", () => {
    const { tenant } = s();
    const [, stage] = ofType(s(), 'AWS::ApiGatewayV2::Stage')[0] as [string, Resource];
    expect(stage.Properties).toMatchObject({
      StageName: '$default',
      DefaultRouteSettings: {
        ThrottlingRateLimit: tenant.throttling.rateLimit,
        ThrottlingBurstLimit: tenant.throttling.burstLimit,
      },
    });
    const accessLogs = stage.Properties.AccessLogSettings as { DestinationArn: { 'Fn::GetAtt': string[] } };
    expect(s().resources[accessLogs.DestinationArn['Fn::GetAtt'][0] as string]?.Type).toBe(
      'AWS::Logs::LogGroup',
    );
    const [, api] = ofType(s(), 'AWS::ApiGatewayV2::Api')[0] as [string, Resource];
    if (tenant.corsOrigins.length === 0) expect(api.Properties.CorsConfiguration).toBeUndefined();
    else expect(api.Properties.CorsConfiguration).toMatchObject({ AllowOrigins: tenant.corsOrigins });
    for (const [, group] of ofType(s(), 'AWS::Logs::LogGroup')) {
      expect(group.Properties.RetentionInDays).toBe(tenant.logRetentionDays);
    }
    const fn = s().resources[functionOf(s(), routes[0] as Route)] as Resource;
    const baseUrl = (fn.Properties.Environment as { Variables: Record<string, unknown> }).Variables
      .PUBLIC_BASE_URL;
    if (tenant.domain) {
      expect(baseUrl).toBe(`https://${tenant.domain.name}`);
      expect(api.Properties.DisableExecuteApiEndpoint).toBe(true);
      s().template.hasResourceProperties('AWS::ApiGatewayV2::DomainName', {
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
      const [apiId] = ofType(s(), 'AWS::ApiGatewayV2::Api')[0] as [string, Resource];
      expect(baseUrl).toEqual({ 'Fn::GetAtt': [apiId, 'ApiEndpoint'] });
    }
  });

  it("hands every route function the tenant's token timings, the signing-key refresh only when set", () => {
    const { tenant } = s();
    for (const route of allRoutes) {
      const fn = s().resources[functionOf(s(), route)] as Resource;
      const variables = (fn.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
      expect(variables.ACCESS_TOKEN_TTL_SECONDS, route.id).toBe(String(tenant.tokens.accessTtlSeconds));
      expect(variables.SIGNING_KEY_REFRESH_SECONDS, route.id).toBe(
        tenant.tokens.signingKeyRefreshSeconds === undefined
          ? undefined
          : String(tenant.tokens.signingKeyRefreshSeconds),
      );
    }
  });

  it('names the signing-key secret in an output, for the admin CLI to rotate keys with', () => {
    const [secretId] = ofType(s(), 'AWS::SecretsManager::Secret')[0] as [string, Resource];
    s().template.hasOutput('SigningKeySecretArn', { Value: { Ref: secretId } });
  });

  it('runs every function on nodejs22.x, arm64, with source maps and its own log group', () => {
    for (const [id, fn] of ofType(s(), 'AWS::Lambda::Function')) {
      expect(fn.Properties, id).toMatchObject({
        Runtime: 'nodejs22.x',
        Architectures: ['arm64'],
        Environment: { Variables: expect.objectContaining({ NODE_OPTIONS: '--enable-source-maps' }) },
        LoggingConfig: { LogGroup: { Ref: expect.any(String) } },
      });
    }
  });

  it('alarms on 5xx rate, on every function’s errors and on throttles of the shared concurrency pool', () => {
    const alarms = ofType(s(), 'AWS::CloudWatch::Alarm').map(([, a]) => a.Properties ?? {});
    const [topicId] = ofType(s(), 'AWS::SNS::Topic')[0] as [string, Resource];
    for (const alarm of alarms) expect(alarm.AlarmActions).toEqual([{ Ref: topicId }]);
    expect(alarms.some((a) => JSON.stringify(a.Metrics).includes('"MetricName":"5xx"'))).toBe(true);
    for (const route of allRoutes) {
      const fn = functionOf(s(), route);
      const watching = alarms.filter(
        (a) => a.MetricName === 'Errors' && JSON.stringify(a.Dimensions).includes(`"Ref":"${fn}"`),
      );
      expect(watching, `${route.id} Errors`).toHaveLength(1);
    }
    const throttles = alarms.filter((a) => a.MetricName === 'Throttles');
    expect(throttles).toHaveLength(1);
    expect(throttles[0]?.Dimensions).toBeUndefined();
  });

  it('keeps exports in a private, versioned, TLS-only bucket under the tenant key, kept for its retention', () => {
    const { tenant } = s();
    const [, bucket] = ofType(s(), 'AWS::S3::Bucket')[0] as [string, Resource];
    const [keyId] = ofType(s(), 'AWS::KMS::Key')[0] as [string, Resource];
    expect(ofType(s(), 'AWS::S3::Bucket')).toHaveLength(1);
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
    const [, policy] = ofType(s(), 'AWS::S3::BucketPolicy')[0] as [string, Resource];
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
    const [fnId, fn] = ofType(s(), 'AWS::Lambda::Function').find(([, r]) =>
      String(r.Properties.Description).startsWith('scheduled-export: '),
    ) as [string, Resource];
    expect(fn.Properties).toMatchObject({ Timeout: 900 });
    const statements = statementsOf(s(), fnId);
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
      ].sort(),
    ]);
    const [bucketId] = ofType(s(), 'AWS::S3::Bucket')[0] as [string, Resource];
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
    const [, rule] = ofType(s(), 'AWS::Events::Rule')[0] as [string, Resource];
    expect(rule.Properties).toMatchObject({
      ScheduleExpression: `cron(${cron.minute} ${cron.hour} ${day} ${cron.month} ${cron.weekDay ?? '?'} *)`,
      State: 'ENABLED',
      Targets: [expect.objectContaining({ Arn: { 'Fn::GetAtt': [fnId, 'Arn'] } })],
    });
    const alarms = ofType(s(), 'AWS::CloudWatch::Alarm').map(([, a]) => a.Properties);
    const failed = alarms.filter(
      (a) => a.MetricName === 'Errors' && JSON.stringify(a.Dimensions).includes(`"Ref":"${fnId}"`),
    );
    expect(failed).toHaveLength(1);
    expect(alarms.filter((a) => a.MetricName === 'FailedInvocations')).toHaveLength(1);
  });

  it('stays well under the CloudFormation limit of 500 resources', () => {
    expect(Object.keys(s().resources).length).toBeLessThan(450);
  });

  it('has no unacknowledged AwsSolutions finding', () => {
    const report = new AwsSolutionsChecks().validateScope(s().stack);
    expect(report.violations.map((v) => `${v.ruleName}: ${v.violatingResources[0]?.constructPath}`)).toEqual(
      [],
    );
  });
});

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
      const [, table] = ofType(s, 'AWS::DynamoDB::Table')[0] as [string, Resource];
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
    for (const r of Object.values(s.resources)) walk({ ...r.Properties, Code: undefined }, '');
    return found;
  }

  it('share no name, ARN, secret, key or table, and import nothing from each other', () => {
    const [a, b] = synthesized as [Synthesized, Synthesized];
    const shared = [...physicalIdentifiers(a)].filter((id) => physicalIdentifiers(b).has(id));
    expect(shared).toEqual([]);
    for (const s of [a, b]) {
      const text = JSON.stringify(s.template.toJSON());
      expect(text).not.toContain('Fn::ImportValue');
      const other = s === a ? b : a;
      expect(text).not.toContain(stackName(other.tenant.id));
      expect(text).not.toContain(`"TENANT_ID":"${other.tenant.id}"`);
      expect(ofType(s, 'AWS::DynamoDB::Table')).toHaveLength(1);
      expect(ofType(s, 'AWS::SecretsManager::Secret')).toHaveLength(1);
      expect(ofType(s, 'AWS::KMS::Key')).toHaveLength(1);
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

describe('acknowledged findings', () => {
  it('each carry a written reason', () => {
    for (const { id, reason } of Object.values(acceptedFindings)) {
      expect(id).toMatch(/^AwsSolutions-/);
      expect(reason.length, id).toBeGreaterThan(80);
    }
  });
});
