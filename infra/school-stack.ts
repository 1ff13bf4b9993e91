// One tenant's whole deployment (`School-<id>`): its key, table, signing-key secret, one function per
// route of the route table behind an HTTP API, the scheduled export and its bucket, logs and alarms. Nothing here is shared with another
// tenant's stack: every name is generated per stack and nothing is imported from elsewhere.
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
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { Certificate } from 'aws-cdk-lib/aws-certificatemanager';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as subscriptions from 'aws-cdk-lib/aws-sns-subscriptions';
import type { Construct } from 'constructs';
import { keys } from '../shared/data/keys';
import { tableDesign } from '../shared/data/table';
import { recordGroups } from '../shared/domain/groups';
import { EXPORTS_PREFIX } from '../shared/exports/manifest';
import { eventBridgeCron } from '../shared/exports/schedule';
import { fallbackRoute, partitionsRead, type Route, routes } from '../shared/routes';
import { exportEntry, handlerEntry, signingKeyEntry } from './bundling';
import { ServiceFunction } from './constructs/service-function';
import { acknowledge } from './nag-acknowledgements';
import { tenantTable } from './tenant-table';
import type { Tenant } from './tenants';

export interface SchoolStackProps extends StackProps {
  tenant: Tenant;
}

/** The name of a tenant's stack, as operators type it in `cdk deploy`. */
export const stackName = (tenantId: string) => `School-${tenantId}`;

/** Adds one stack per tenant to the app, as `cdk synth` and the tests build them. */
export function addTenantStacks(app: App, tenants: readonly Tenant[]): SchoolStack[] {
  return tenants.map(
    (tenant) =>
      new SchoolStack(app, stackName(tenant.id), {
        tenant,
        env: { account: tenant.account, region: tenant.region },
        description: `School API of tenant ${tenant.id} (${tenant.name})`,
      }),
  );
}

/** Alarm when more than this share of a 5-minute window's requests end in a 5xx. */
const SERVER_ERROR_PERCENT = 5;

/** Lambda's longest run; the export stops cleanly 30 s before it (functions/exports/run.ts). */
const EXPORT_TIMEOUT = Duration.minutes(15);
/** How long an export object replaced by a retried run, or expired, can still be recovered. */
const EXPORT_NONCURRENT_DAYS = 30;

/** Construct ids from route ids: `list-students` becomes `ListStudents`. */
const constructId = (routeId: string) =>
  routeId.replace(/(^|-)([a-z])/g, (_match: string, _dash: string, letter: string) => letter.toUpperCase());

export class SchoolStack extends Stack {
  readonly table: dynamodb.Table;
  readonly api: apigw.HttpApi;
  /** The route functions, by route id. */
  readonly functions = new Map<string, ServiceFunction>();
  readonly exportBucket: s3.Bucket;
  readonly exportFunction: ServiceFunction;
  readonly exportSchedule: events.Rule;

  constructor(scope: Construct, id: string, props: SchoolStackProps) {
    super(scope, id, props);
    const { tenant } = props;
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

    const functionDefaults = { logRetention, logRemovalPolicy: removalPolicy };
    const signingKeyFunction = new ServiceFunction(this, 'SigningKeyFunction', {
      ...functionDefaults,
      entry: signingKeyEntry,
      description: `signing-key: creates the token signing key of tenant ${tenant.id} at deploy time`,
      environment: {},
      timeout: Duration.minutes(1),
    });
    signingKeyFunction.addToRolePolicy(
      new iam.PolicyStatement({
        actions: ['secretsmanager:GetSecretValue', 'secretsmanager:PutSecretValue'],
        resources: [signingKeySecret.secretArn],
      }),
    );
    signingKeyFunction.addToRolePolicy(this.tableStatement(['dynamodb:PutItem'], [keys.publicKeyPartition]));
    signingKeyFunction.addToRolePolicy(
      this.keyStatement(key, ['kms:Decrypt', 'kms:Encrypt', 'kms:GenerateDataKey'], 'secretsmanager'),
    );
    signingKeyFunction.addToRolePolicy(
      this.keyStatement(key, ['kms:Decrypt', 'kms:Encrypt', 'kms:GenerateDataKey'], 'dynamodb'),
    );
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
              allowMethods: [apigw.CorsHttpMethod.GET, apigw.CorsHttpMethod.POST],
              allowHeaders: ['authorization', 'content-type'],
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

    const environment = {
      TABLE_NAME: this.table.tableName,
      TENANT_ID: tenant.id,
      TENANT_NAME: tenant.name,
      PUBLIC_BASE_URL: publicBaseUrl,
      ACCESS_TOKEN_TTL_SECONDS: String(tenant.tokens.accessTtlSeconds),
      REFRESH_TOKEN_TTL_SECONDS: String(tenant.tokens.refreshTtlSeconds),
      ...(tenant.tokens.signingKeyRefreshSeconds === undefined
        ? {}
        : { SIGNING_KEY_REFRESH_SECONDS: String(tenant.tokens.signingKeyRefreshSeconds) }),
      LOG_LEVEL: 'info',
    };
    for (const route of [...routes, fallbackRoute]) {
      const fn = new ServiceFunction(this, constructId(route.id), {
        ...functionDefaults,
        entry: handlerEntry(route),
        description: `${route.id}: ${route.method} ${route.path} of tenant ${tenant.id}`,
        environment:
          route.access === 'sign'
            ? { ...environment, SIGNING_KEY_SECRET_ARN: signingKeySecret.secretArn }
            : environment,
      });
      this.grantRouteAccess(fn, route, key, signingKeySecret);
      if (route.access === 'sign') fn.node.addDependency(signingKey);
      const httpRoute = new apigw.HttpRoute(this, `${constructId(route.id)}Route`, {
        httpApi: this.api,
        routeKey:
          route.path === fallbackRoute.path
            ? apigw.HttpRouteKey.DEFAULT
            : apigw.HttpRouteKey.with(route.path, apigw.HttpMethod[route.method]),
        integration: new HttpLambdaIntegration(`${constructId(route.id)}Integration`, fn),
      });
      acknowledge(httpRoute, 'routeAuthorization');
      this.functions.set(route.id, fn);
    }

    const exports = this.addExport(tenant, key, functionDefaults);
    this.exportBucket = exports.bucket;
    this.exportFunction = exports.fn;
    this.exportSchedule = exports.rule;

    this.addAlarms(tenant, key);

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
    if (domain) {
      new CfnOutput(this, 'DomainTarget', {
        value: domain.regionalDomainName,
        description: `Point a CNAME or alias record for ${tenant.domain?.name} here`,
      });
    }
  }

  /**
   * The scheduled export: a private, versioned, TLS-only bucket encrypted with the tenant key and emptied
   * by the tenant's retention; a function that may read the record, counter and deletion partitions and
   * write under exports/ only; and the EventBridge rule that runs it on the tenant's schedule (UTC).
   */
  private addExport(
    tenant: Tenant,
    key: kms.Key,
    defaults: { logRetention: logs.RetentionDays; logRemovalPolicy: RemovalPolicy },
  ) {
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
      ...defaults,
      entry: exportEntry,
      description: `scheduled-export: snapshot of every group to the export bucket of tenant ${tenant.id}`,
      environment: {
        TABLE_NAME: this.table.tableName,
        TENANT_ID: tenant.id,
        EXPORT_BUCKET: bucket.bucketName,
        LOG_LEVEL: 'info',
      },
      timeout: EXPORT_TIMEOUT,
      memorySize: 1024,
    });
    fn.addToRolePolicy(
      this.tableStatement(
        ['dynamodb:GetItem', 'dynamodb:Query'],
        [
          ...recordGroups.map(keys.recordPartition),
          keys.counterPartition,
          ...recordGroups.map(keys.deletionPartition),
        ],
      ),
    );
    fn.addToRolePolicy(this.keyStatement(key, ['kms:Decrypt'], 'dynamodb'));
    fn.addToRolePolicy(
      new iam.PolicyStatement({
        actions: ['s3:PutObject', 's3:GetObject', 's3:AbortMultipartUpload'],
        resources: [bucket.arnForObjects(`${EXPORTS_PREFIX}*`)],
      }),
    );
    // Listing lets a missing manifest answer 404 rather than 403; it is limited to the exports prefix.
    fn.addToRolePolicy(
      new iam.PolicyStatement({
        actions: ['s3:ListBucket'],
        resources: [bucket.bucketArn],
        conditions: { StringLike: { 's3:prefix': `${EXPORTS_PREFIX}*` } },
      }),
    );
    fn.addToRolePolicy(this.keyStatement(key, ['kms:GenerateDataKey', 'kms:Decrypt'], 's3'));
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

  /**
   * A route reads and writes its partitions and nothing else; the token route also reads the signing key.
   * Transactions need no grant of their own: each of their actions is checked like a single write.
   */
  private grantRouteAccess(fn: ServiceFunction, route: Route, key: kms.Key, secret: secretsmanager.Secret) {
    const partitions = partitionsRead(route);
    if (partitions.length > 0) {
      fn.addToRolePolicy(
        this.tableStatement(['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query'], partitions),
      );
      fn.addToRolePolicy(
        this.tableStatement(
          ['dynamodb:Query'],
          partitions,
          tableDesign.indexes.map((index) => `/index/${index.name}`),
        ),
      );
    }
    if (route.writes.length > 0) {
      fn.addToRolePolicy(
        this.tableStatement(
          ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:ConditionCheckItem'],
          [...route.writes],
        ),
      );
    }
    if (partitions.length > 0 || route.writes.length > 0) {
      fn.addToRolePolicy(this.keyStatement(key, ['kms:Decrypt'], 'dynamodb'));
    }
    if (route.access === 'sign') {
      fn.addToRolePolicy(
        new iam.PolicyStatement({
          actions: ['secretsmanager:GetSecretValue'],
          resources: [secret.secretArn],
        }),
      );
      fn.addToRolePolicy(this.keyStatement(key, ['kms:Decrypt'], 'secretsmanager'));
    }
  }

  /**
   * Table (or index) actions limited to items whose partition key is one of `partitions`. Scan is never
   * granted: it names no leading key, so the condition would not hold it back. BatchGetItem names one per
   * key, and each must be allowed.
   */
  private tableStatement(actions: string[], partitions: string[], indexes: string[] = ['']) {
    return new iam.PolicyStatement({
      actions,
      resources: indexes.map((index) => `${this.table.tableArn}${index}`),
      conditions: { 'ForAllValues:StringEquals': { 'dynamodb:LeadingKeys': partitions } },
    });
  }

  /** Use of the tenant key, only through the one service that needs it. */
  private keyStatement(key: kms.Key, actions: string[], service: 'dynamodb' | 'secretsmanager' | 's3') {
    return new iam.PolicyStatement({
      actions,
      resources: [key.keyArn],
      conditions: { StringEquals: { 'kms:ViaService': `${service}.${this.region}.amazonaws.com` } },
    });
  }

  private addAlarms(tenant: Tenant, key: kms.Key) {
    const topic = new sns.Topic(this, 'AlarmTopic', {
      displayName: `School API alarms of tenant ${tenant.id}`,
      masterKey: key,
      enforceSSL: true,
    });
    // CloudWatch publishes to the encrypted topic, so it may use the key for that.
    key.grant(new iam.ServicePrincipal('cloudwatch.amazonaws.com'), 'kms:Decrypt', 'kms:GenerateDataKey');
    if (tenant.alarmEmail) topic.addSubscription(new subscriptions.EmailSubscription(tenant.alarmEmail));
    const notify = new SnsAction(topic);
    const window = { period: Duration.minutes(5), statistic: cloudwatch.Stats.SUM };

    const serverErrors = new cloudwatch.MathExpression({
      expression: 'IF(requests > 0, 100 * errors / requests, 0)',
      usingMetrics: {
        errors: this.api.metricServerError(window),
        requests: this.api.metricCount(window),
      },
      period: window.period,
      label: '5xx responses (%)',
    }).createAlarm(this, 'ServerErrorRateAlarm', {
      alarmDescription: `More than ${SERVER_ERROR_PERCENT}% of requests to tenant ${tenant.id} ended in 5xx`,
      threshold: SERVER_ERROR_PERCENT,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 2,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
    serverErrors.addAlarmAction(notify);

    for (const [routeId, fn] of this.functions) {
      fn.metricErrors(window)
        .createAlarm(this, `${constructId(routeId)}ErrorsAlarm`, {
          alarmDescription: `${routeId} of tenant ${tenant.id} failed outside its error handling`,
          threshold: 1,
          comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
          evaluationPeriods: 1,
          treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
        })
        .addAlarmAction(notify);
    }
    // Throttling comes from the concurrency pool every function of the account and region shares, so one
    // alarm on the pool's throttles covers this tenant's functions (and says when another tenant starves it).
    lambda.Function.metricAllThrottles(window)
      .createAlarm(this, 'LambdaThrottlesAlarm', {
        alarmDescription: `Lambda throttled functions in this account and region, which tenant ${tenant.id} shares`,
        threshold: 1,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        evaluationPeriods: 1,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      })
      .addAlarmAction(notify);

    // A scheduled export that failed (an error, or Lambda's time limit), or that could not be started.
    const exportAlarms = [
      this.exportFunction.metricErrors(window).createAlarm(this, 'ExportErrorsAlarm', {
        alarmDescription: `A scheduled export of tenant ${tenant.id} failed; that run has no manifest`,
        threshold: 1,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        evaluationPeriods: 1,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      }),
      new cloudwatch.Metric({
        namespace: 'AWS/Events',
        metricName: 'FailedInvocations',
        dimensionsMap: { RuleName: this.exportSchedule.ruleName },
        ...window,
      }).createAlarm(this, 'ExportScheduleFailedAlarm', {
        alarmDescription: `EventBridge could not start the scheduled export of tenant ${tenant.id}`,
        threshold: 1,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        evaluationPeriods: 1,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      }),
    ];
    for (const alarm of exportAlarms) alarm.addAlarmAction(notify);
  }
}
