// One tenant's whole deployment (`School-<id>`). The root stack holds what the tenant has once: its key,
// table, signing-key secret, HTTP API and stage, the log group all its functions share, the scheduled
// export and its bucket, the change events' functions and queues, alarms and outputs. Its routes live in
// nested stacks, one per area of the route table (infra/route-area-stack.ts), so the root grows by one
// resource per area and each area by five per route. Nothing here is shared with another tenant's stack:
// every name is generated per stack and nothing is imported from elsewhere.
import {
  type App,
  CfnOutput,
  CustomResource,
  Duration,
  RemovalPolicy,
  Stack,
  type StackProps,
  Tags,
} from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import { Certificate } from 'aws-cdk-lib/aws-certificatemanager';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as logs from 'aws-cdk-lib/aws-logs';
import { LambdaDestination } from 'aws-cdk-lib/aws-logs-destinations';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { AUDIT_FILTER_PATTERN } from '../shared/audit/forwarder';
import { keys } from '../shared/data/keys';
import { recordGroups } from '../shared/domain/groups';
import { EXPORTS_PREFIX } from '../shared/exports/manifest';
import { eventBridgeCron } from '../shared/exports/schedule';
import { fallbackRoute, routes } from '../shared/routes';
import { keyStatement, type TenantData, tableStatement } from './access';
import { auditForwarderEntry, exportEntry, signingKeyEntry } from './bundling';
import { ServiceFunction } from './constructs/service-function';
import { acknowledge } from './nag-acknowledgements';
import { areasOf, constructId, RouteAreaStack, type RouteTable } from './route-area-stack';
import { addTenantAlarms } from './tenant-alarms';
import { TenantEvents } from './tenant-events';
import { tenantTable } from './tenant-table';
import type { Tenant } from './tenants';

export interface SchoolStackProps extends StackProps {
  tenant: Tenant;
  /** The routes to serve; the route table of shared/routes.ts unless a test passes another. */
  routeTable?: RouteTable;
}

/** The name of a tenant's stack, as operators type it in `cdk deploy`. */
export const stackName = (tenantId: string) => `School-${tenantId}`;

/** Adds one stack per tenant to the app, as `cdk synth` and the tests build them. */
export function addTenantStacks(
  app: App,
  tenants: readonly Tenant[],
  routeTable: RouteTable = { routes, fallbackRoute },
): SchoolStack[] {
  return tenants.map(
    (tenant) =>
      new SchoolStack(app, stackName(tenant.id), {
        tenant,
        routeTable,
        env: { account: tenant.account, region: tenant.region },
        description: `School API of tenant ${tenant.id} (${tenant.name})`,
      }),
  );
}

/** Lambda's longest run; the export stops cleanly 30 s before it (functions/exports/run.ts). */
const EXPORT_TIMEOUT = Duration.minutes(15);
/** How long an export object replaced by a retried run, or expired, can still be recovered. */
const EXPORT_NONCURRENT_DAYS = 30;

/** What a browser client of a tenant with CORS origins may send: every method and header the API takes. */
export const corsMethods = [
  apigw.CorsHttpMethod.GET,
  apigw.CorsHttpMethod.POST,
  apigw.CorsHttpMethod.PUT,
  apigw.CorsHttpMethod.DELETE,
] as const;
export const corsRequestHeaders = [
  'authorization',
  'content-type',
  'idempotency-key',
  'if-match',
  'if-none-match',
] as const;
/** The response headers the API's contract gives clients (docs/api.md), readable by a browser client. */
export const corsExposedHeaders = [
  'x-request-id',
  'etag',
  'location',
  'x-total-count',
  'link',
  'idempotent-replayed',
  'retry-after',
  // A browser app reads the bearer challenge (RFC 6750 section 3) of a refused userinfo or API call.
  'www-authenticate',
] as const;

export class SchoolStack extends Stack {
  readonly table: dynamodb.Table;
  readonly api: apigw.HttpApi;
  /** The log group every function of the tenant writes to. */
  readonly functionLogs: logs.LogGroup;
  /** The nested stack of each area of the route table, by area. */
  readonly areas = new Map<string, RouteAreaStack>();
  readonly exportBucket: s3.Bucket;
  readonly exportFunction: ServiceFunction;
  readonly exportSchedule: events.Rule;
  /** Who read or changed whose records (docs/privacy.md), kept for the tenant's log retention. */
  readonly auditLogs: logs.LogGroup;
  /** The change events: the stream and delivery functions and their queues (docs/events.md). */
  readonly events: TenantEvents;

  constructor(scope: Construct, id: string, props: SchoolStackProps) {
    super(scope, id, props);
    const { tenant, routeTable = { routes, fallbackRoute } } = props;
    const removalPolicy = tenant.production ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY;
    const logRetention = tenant.logRetentionDays as logs.RetentionDays;
    Tags.of(this).add('tenant', tenant.id);

    // One key per tenant encrypts its table, secret and alarm topic: no key is shared with another
    // tenant, every use is in CloudTrail, and disabling it locks the tenant's data at once.
    const key = new kms.Key(this, 'TenantKey', {
      description: `Encrypts the data of tenant ${tenant.id}`,
      enableKeyRotation: true,
      removalPolicy,
      pendingWindow: Duration.days(tenant.production ? 30 : 7),
    });

    this.table = tenantTable(this, 'Table', {
      encryptionKey: key,
      deletionProtection: tenant.production,
      removalPolicy,
    });

    // Created with a random placeholder; the signing-key resource below replaces it with the key.
    const signingKeySecret = new secretsmanager.Secret(this, 'SigningKeySecret', {
      description: `Private token signing key of tenant ${tenant.id}`,
      encryptionKey: key,
      removalPolicy,
    });
    acknowledge(signingKeySecret, 'signingKeyRotation');

    // Signs list cursors. Generated once and handed to every route function as configuration, so a cursor
    // is checked without a read, and one issued before a deployment or by another instance still holds.
    const cursorKeySecret = new secretsmanager.Secret(this, 'CursorKeySecret', {
      description: `List cursor signing key of tenant ${tenant.id}`,
      encryptionKey: key,
      removalPolicy,
      generateSecretString: { passwordLength: 64, excludePunctuation: true },
    });
    acknowledge(cursorKeySecret, 'cursorKeyRotation');

    this.functionLogs = new logs.LogGroup(this, 'FunctionLogs', { retention: logRetention, removalPolicy });

    const signingKeyFunction = new ServiceFunction(this, 'SigningKeyFunction', {
      entry: signingKeyEntry,
      description: `signing-key: creates the token signing key of tenant ${tenant.id} at deploy time`,
      environment: {},
      logGroup: this.functionLogs,
      tracing: tenant.tracing,
      statements: [
        new iam.PolicyStatement({
          actions: ['secretsmanager:GetSecretValue', 'secretsmanager:PutSecretValue'],
          resources: [signingKeySecret.secretArn],
        }),
        tableStatement(this.table, ['dynamodb:PutItem'], [keys.publicKeyPartition]),
        keyStatement(key, ['kms:Decrypt', 'kms:Encrypt', 'kms:GenerateDataKey'], 'secretsmanager'),
        keyStatement(key, ['kms:Decrypt', 'kms:Encrypt', 'kms:GenerateDataKey'], 'dynamodb'),
      ],
      timeout: Duration.minutes(1),
    });
    const signingKey = new CustomResource(this, 'SigningKey', {
      serviceToken: signingKeyFunction.functionArn,
      resourceType: 'Custom::SigningKey',
      properties: { SecretArn: signingKeySecret.secretArn, TableName: this.table.tableName },
    });

    this.api = new apigw.HttpApi(this, 'Api', {
      apiName: `school-${tenant.id}`,
      description: `School API of tenant ${tenant.id}`,
      createDefaultStage: false,
      // With a custom domain, the domain is the one address: tokens name it as their issuer.
      disableExecuteApiEndpoint: tenant.domain !== undefined,
      ...(tenant.corsOrigins.length > 0
        ? {
            corsPreflight: {
              allowOrigins: tenant.corsOrigins,
              allowMethods: [...corsMethods],
              allowHeaders: [...corsRequestHeaders],
              // Without these a browser client sees only the CORS-safelisted headers: no ETag to send back
              // in If-Match, no cursor links or totals, no request id to quote.
              exposeHeaders: [...corsExposedHeaders],
              maxAge: Duration.hours(1),
            },
          }
        : {}),
    });
    const domain = tenant.domain
      ? new apigw.DomainName(this, 'Domain', {
          domainName: tenant.domain.name,
          certificate: Certificate.fromCertificateArn(this, 'Certificate', tenant.domain.certificateArn),
          securityPolicy: apigw.SecurityPolicy.TLS_1_2,
        })
      : undefined;
    const accessLogs = new logs.LogGroup(this, 'ApiAccessLogs', { retention: logRetention, removalPolicy });
    new apigw.HttpStage(this, 'Stage', {
      httpApi: this.api,
      stageName: '$default',
      autoDeploy: true,
      throttle: tenant.throttling,
      accessLogSettings: {
        destination: new apigw.LogGroupLogDestination(accessLogs),
        // No query string and no headers: an access_token query parameter never reaches the log.
        format: AccessLogFormat.custom(
          JSON.stringify({
            requestId: '$context.requestId',
            ip: '$context.identity.sourceIp',
            requestTime: '$context.requestTime',
            method: '$context.httpMethod',
            routeKey: '$context.routeKey',
            status: '$context.status',
            protocol: '$context.protocol',
            responseLength: '$context.responseLength',
            latencyMs: '$context.responseLatency',
            integrationError: '$context.integrationErrorMessage',
          }),
        ),
      },
      ...(domain ? { domainMapping: { domainName: domain } } : {}),
    });
    const publicBaseUrl = tenant.domain ? `https://${tenant.domain.name}` : this.api.apiEndpoint;

    const data: TenantData = { table: this.table, key, signingKeySecret };
    const environment = {
      TABLE_NAME: this.table.tableName,
      TENANT_ID: tenant.id,
      TENANT_NAME: tenant.name,
      // Resolved by CloudFormation at deployment: the template holds a reference, never the key.
      CURSOR_KEY: cursorKeySecret.secretValue.unsafeUnwrap(),
      PUBLIC_BASE_URL: publicBaseUrl,
      ACCESS_TOKEN_TTL_SECONDS: String(tenant.tokens.accessTtlSeconds),
      REFRESH_TOKEN_TTL_SECONDS: String(tenant.tokens.refreshTtlSeconds),
      ...(tenant.tokens.signingKeyRefreshSeconds === undefined
        ? {}
        : { SIGNING_KEY_REFRESH_SECONDS: String(tenant.tokens.signingKeyRefreshSeconds) }),
      SESSION_IDLE_SECONDS: String(tenant.signOn.sessionIdleSeconds),
      SESSION_ABSOLUTE_SECONDS: String(tenant.signOn.sessionAbsoluteSeconds),
      ADMIN_TOTP_REQUIRED: String(tenant.signOn.adminTotpRequired),
      DEFAULT_LOCALE: tenant.signOn.locale,
      LOG_LEVEL: 'info',
    };
    for (const area of areasOf(routeTable)) {
      this.areas.set(
        area,
        new RouteAreaStack(this, `${constructId(area)}Routes`, {
          tenantId: tenant.id,
          area,
          routeTable,
          data,
          api: this.api,
          logGroup: this.functionLogs,
          environment,
          signingKey,
          tracing: tenant.tracing,
        }),
      );
    }

    this.auditLogs = this.addAuditTrail(tenant, removalPolicy);

    const exports = this.addExport(tenant, key);
    this.exportBucket = exports.bucket;
    this.exportFunction = exports.fn;
    this.exportSchedule = exports.rule;

    this.events = new TenantEvents(this, 'Events', {
      tenant,
      table: this.table,
      key,
      logGroup: this.functionLogs,
      removalPolicy,
    });

    addTenantAlarms(this, {
      tenant,
      key,
      api: this.api,
      functionLogs: this.functionLogs,
      exportSchedule: this.exportSchedule,
      deadLetterQueues: [this.events.deadLetterQueue, this.events.failedStreamBatches],
    });

    new CfnOutput(this, 'ApiUrl', { value: publicBaseUrl, description: 'Base address of the API' });
    new CfnOutput(this, 'TableName', { value: this.table.tableName });
    new CfnOutput(this, 'SigningKeySecretArn', {
      value: signingKeySecret.secretArn,
      description: 'SIGNING_KEY_SECRET_ARN for `npm run admin -- keys ...` (docs/deploy.md)',
    });
    new CfnOutput(this, 'ExportBucketName', {
      value: this.exportBucket.bucketName,
      description: `Scheduled exports, one run per ${EXPORTS_PREFIX}<run id>/ (docs/exports.md)`,
    });
    new CfnOutput(this, 'WebhookDeadLetterQueueUrl', {
      value: this.events.deadLetterQueue.queueUrl,
      description: 'Webhook deliveries that failed every attempt, to redrive (docs/deploy.md)',
    });
    new CfnOutput(this, 'FailedStreamBatchesQueueUrl', {
      value: this.events.failedStreamBatches.queueUrl,
      description: 'Table stream batches that made no change events after every retry (docs/deploy.md)',
    });
    if (domain) {
      new CfnOutput(this, 'DomainTarget', {
        value: domain.regionalDomainName,
        description: `Point a CNAME or alias record for ${tenant.domain?.name} here`,
      });
    }
  }

  /**
   * The audit trail: the functions write each audit event as a line of their log, and a subscription on
   * the function log group hands those lines to a forwarder that writes them to the tenant's own audit
   * log group. The request path makes no extra call and loads no CloudWatch Logs client for it.
   */
  private addAuditTrail(tenant: Tenant, removalPolicy: RemovalPolicy): logs.LogGroup {
    const auditLogs = new logs.LogGroup(this, 'AuditLogs', {
      retention: tenant.logRetentionDays as logs.RetentionDays,
      removalPolicy,
    });
    const forwarder = new ServiceFunction(this, 'AuditForwarder', {
      entry: auditForwarderEntry,
      description: `audit-forwarder: writes the audit events of tenant ${tenant.id} to its audit log group`,
      environment: { AUDIT_LOG_GROUP: auditLogs.logGroupName, LOG_LEVEL: 'info' },
      logGroup: this.functionLogs,
      tracing: tenant.tracing,
      statements: [
        new iam.PolicyStatement({
          actions: ['logs:CreateLogStream', 'logs:PutLogEvents'],
          resources: [auditLogs.logGroupArn],
        }),
      ],
    });
    // The forwarder logs into the function log group too, but writes no audit line, so it never feeds itself.
    new logs.SubscriptionFilter(this, 'AuditSubscription', {
      logGroup: this.functionLogs,
      destination: new LambdaDestination(forwarder),
      filterPattern: logs.FilterPattern.literal(AUDIT_FILTER_PATTERN),
    });
    new CfnOutput(this, 'AuditLogGroupName', {
      value: auditLogs.logGroupName,
      description:
        'The audit log group: AUDIT_LOG_GROUP for `npm run admin -- audit person` (docs/privacy.md)',
    });
    return auditLogs;
  }

  /**
   * The scheduled export: a private, versioned, TLS-only bucket encrypted with the tenant key and emptied
   * by the tenant's retention; a function that may read the record, counter and deletion partitions and
   * write under exports/ only; and the EventBridge rule that runs it on the tenant's schedule (UTC).
   */
  private addExport(tenant: Tenant, key: kms.Key) {
    const bucket = new s3.Bucket(this, 'ExportBucket', {
      // The tenant key, as for the table: exports hold the same personal data, disabling the key locks
      // both, and without Bucket Keys every object read is a kms:Decrypt in CloudTrail.
      encryption: s3.BucketEncryption.KMS,
      encryptionKey: key,
      bucketKeyEnabled: false,
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      enforceSSL: true,
      versioned: true,
      lifecycleRules: [
        {
          id: 'export-retention',
          expiration: Duration.days(tenant.exports.retentionDays),
          noncurrentVersionExpiration: Duration.days(EXPORT_NONCURRENT_DAYS),
          abortIncompleteMultipartUploadAfter: Duration.days(1),
        },
      ],
      // Exports are the copies a school keeps: they outlive the stack, production or not.
      removalPolicy: RemovalPolicy.RETAIN,
    });
    acknowledge(bucket, 'exportBucketAccessLogs');

    const fn = new ServiceFunction(this, 'ExportFunction', {
      entry: exportEntry,
      description: `scheduled-export: snapshot of every group to the export bucket of tenant ${tenant.id}`,
      environment: {
        TABLE_NAME: this.table.tableName,
        TENANT_ID: tenant.id,
        EXPORT_BUCKET: bucket.bucketName,
        LOG_LEVEL: 'info',
      },
      logGroup: this.functionLogs,
      tracing: tenant.tracing,
      statements: [
        tableStatement(
          this.table,
          ['dynamodb:GetItem', 'dynamodb:Query'],
          [
            ...recordGroups.map(keys.recordPartition),
            keys.counterPartition,
            ...recordGroups.map(keys.deletionPartition),
            // The accounts' usernames, for the OneRoster users.csv.
            keys.userPartition,
          ],
        ),
        keyStatement(key, ['kms:Decrypt'], 'dynamodb'),
        new iam.PolicyStatement({
          actions: ['s3:PutObject', 's3:GetObject', 's3:AbortMultipartUpload'],
          resources: [bucket.arnForObjects(`${EXPORTS_PREFIX}*`)],
        }),
        // Listing lets a missing manifest answer 404 rather than 403; it is limited to the exports prefix.
        new iam.PolicyStatement({
          actions: ['s3:ListBucket'],
          resources: [bucket.bucketArn],
          conditions: { StringLike: { 's3:prefix': `${EXPORTS_PREFIX}*` } },
        }),
        keyStatement(key, ['kms:GenerateDataKey', 'kms:Decrypt'], 's3'),
      ],
      timeout: EXPORT_TIMEOUT,
      memorySize: 1024,
    });
    const bucketId = this.getLogicalId(bucket.node.defaultChild as s3.CfnBucket);
    if (fn.role)
      acknowledge(fn.role, 'exportObjectsWildcard', `Resource::<${bucketId}.Arn>/${EXPORTS_PREFIX}*`);
    // A failed run is tried twice more with the same event, so it rewrites the same run.
    fn.configureAsyncInvoke({ retryAttempts: 2, maxEventAge: Duration.hours(6) });

    const rule = new events.Rule(this, 'ExportSchedule', {
      description: `Scheduled export of tenant ${tenant.id} (${tenant.exports.schedule} UTC)`,
      schedule: events.Schedule.cron(eventBridgeCron(tenant.exports.schedule)),
      targets: [new targets.LambdaFunction(fn, { retryAttempts: 4, maxEventAge: Duration.hours(2) })],
    });
    return { bucket, fn, rule };
  }
}
