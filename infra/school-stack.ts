// One tenant's whole deployment (`School-<id>`): its key, table, signing-key secret, one function per
// route of the route table behind an HTTP API, logs and alarms. Nothing here is shared with another
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
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as subscriptions from 'aws-cdk-lib/aws-sns-subscriptions';
import type { Construct } from 'constructs';
import { keys } from '../shared/data/keys';
import { tableDesign } from '../shared/data/table';
import { fallbackRoute, partitionsRead, type Route, routes } from '../shared/routes';
import { handlerEntry, signingKeyEntry } from './bundling';
import { ServiceFunction } from './constructs/service-function';
import { acknowledge } from './nag-acknowledgements';
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

/** Construct ids from route ids: `list-students` becomes `ListStudents`. */
const constructId = (routeId: string) =>
  routeId.replace(/(^|-)([a-z])/g, (_match: string, _dash: string, letter: string) => letter.toUpperCase());

export class SchoolStack extends Stack {
  readonly table: dynamodb.Table;
  readonly api: apigw.HttpApi;
  /** The route functions, by route id. */
  readonly functions = new Map<string, ServiceFunction>();

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

    this.table = new dynamodb.Table(this, 'Table', {
      partitionKey: { name: tableDesign.partitionKey, type: dynamodb.AttributeType.STRING },
      sortKey: { name: tableDesign.sortKey, type: dynamodb.AttributeType.STRING },
      billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      encryption: dynamodb.TableEncryption.CUSTOMER_MANAGED,
      encryptionKey: key,
      deletionProtection: tenant.production,
      removalPolicy,
    });
    this.table.addGlobalSecondaryIndex({
      indexName: tableDesign.keysIndex.name,
      partitionKey: { name: tableDesign.keysIndex.partitionKey, type: dynamodb.AttributeType.STRING },
      sortKey: { name: tableDesign.keysIndex.sortKey, type: dynamodb.AttributeType.STRING },
      projectionType: dynamodb.ProjectionType.KEYS_ONLY,
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

    this.addAlarms(tenant, key);

    new CfnOutput(this, 'ApiUrl', { value: publicBaseUrl, description: 'Base address of the API' });
    new CfnOutput(this, 'TableName', { value: this.table.tableName });
    if (domain) {
      new CfnOutput(this, 'DomainTarget', {
        value: domain.regionalDomainName,
        description: `Point a CNAME or alias record for ${tenant.domain?.name} here`,
      });
    }
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
          [tableDesign.keysIndex.name, tableDesign.changesIndex.name].map((index) => `/index/${index}`),
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
  private keyStatement(key: kms.Key, actions: string[], service: 'dynamodb' | 'secretsmanager') {
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
      const alarms = [
        fn.metricErrors(window).createAlarm(this, `${constructId(routeId)}ErrorsAlarm`, {
          alarmDescription: `${routeId} of tenant ${tenant.id} failed outside its error handling`,
          threshold: 1,
          comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
          evaluationPeriods: 1,
          treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
        }),
        fn.metricThrottles(window).createAlarm(this, `${constructId(routeId)}ThrottlesAlarm`, {
          alarmDescription: `Lambda throttled ${routeId} of tenant ${tenant.id}`,
          threshold: 1,
          comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
          evaluationPeriods: 1,
          treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
        }),
      ];
      for (const alarm of alarms) alarm.addAlarmAction(notify);
    }
  }
}
