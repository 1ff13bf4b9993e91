// Deploys one synthesized stack onto local stand-ins the way CloudFormation deploys it onto AWS: its
// tables into DynamoDB Local (with the template's keys, indexes and time to live), its buckets into a
// local S3, its secrets into moto's Secrets Manager, each HTTP API as a local gateway that turns requests
// into payload 2.0 events for the routes' functions, and its custom resources created by their
// functions. Every function runs from its bundled asset in a Lambda environment of its runtime, with the
// template's environment variables (references resolved to the stand-ins), the variables Lambda itself
// sets, and the stand-ins' endpoints: nothing else.
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { CloudWatchLogsClient, CreateLogGroupCommand } from '@aws-sdk/client-cloudwatch-logs';
import {
  CreateTableCommand,
  type CreateTableCommandInput,
  DynamoDBClient,
  UpdateTimeToLiveCommand,
  waitUntilTableExists,
} from '@aws-sdk/client-dynamodb';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { CreateSecretCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { type ResponseInspector, toEvent, write } from '../../infra/local/api-gateway';
import {
  type CloudAssembly,
  type CustomResource,
  type DeployedFunction,
  type HttpRoute,
  type LogSubscription,
  type Pseudo,
  type ResourceRef,
  resolveValue,
  type Schedule,
  type StackScope,
} from './cloud-assembly';
import { type InvocationResult, LambdaEnvironment, nodeForRuntime } from './lambda-environment';

/** Where the stand-ins listen, as the AWS SDK reads it from a function's environment. */
export interface StandInEndpoints {
  AWS_ENDPOINT_URL_DYNAMODB: string;
  AWS_ENDPOINT_URL_S3: string;
  AWS_ENDPOINT_URL_SECRETS_MANAGER: string;
  /** moto's CloudWatch Logs: the stack's log groups are created there, for the audit forwarder to write. */
  AWS_ENDPOINT_URL_CLOUDWATCH_LOGS: string;
}

/** moto's account, so the ARNs of every stand-in name the same account as the secrets moto makes. */
const ACCOUNT_ID = '123456789012';
const PSEUDO: Pseudo = { accountId: ACCOUNT_ID, partition: 'aws', urlSuffix: 'amazonaws.com' };
/**
 * Lambda hands a function its role's temporary credentials. DynamoDB Local and moto take any; s3rver
 * checks signatures against its one built-in key, so the stand-in role's credentials are that key.
 */
const CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER', sessionToken: 'local-session-token' };
/** Variables Lambda sets itself and refuses in a function's configuration. */
const RESERVED = new Set([
  '_HANDLER',
  '_X_AMZN_TRACE_ID',
  'AWS_DEFAULT_REGION',
  'AWS_REGION',
  'AWS_EXECUTION_ENV',
  'AWS_LAMBDA_FUNCTION_NAME',
  'AWS_LAMBDA_FUNCTION_MEMORY_SIZE',
  'AWS_LAMBDA_FUNCTION_VERSION',
  'AWS_LAMBDA_INITIALIZATION_TYPE',
  'AWS_LAMBDA_LOG_GROUP_NAME',
  'AWS_LAMBDA_LOG_STREAM_NAME',
  'AWS_ACCESS_KEY',
  'AWS_ACCESS_KEY_ID',
  'AWS_SECRET_ACCESS_KEY',
  'AWS_SESSION_TOKEN',
  'AWS_LAMBDA_RUNTIME_API',
  'LAMBDA_TASK_ROOT',
  'LAMBDA_RUNTIME_DIR',
]);
/** API Gateway refuses bodies over 10 MB before they reach a function. */
const MAX_BODY_BYTES = 10 * 1024 * 1024;
/** Warm environments kept at once; the least recently used one is reclaimed, as Lambda does. */
const WARM_ENVIRONMENTS = 12;

const key = (ref: Pick<ResourceRef, 'scope' | 'logicalId'>) => `${ref.scope.path}/${ref.logicalId}`;
const suffix = (length: number) => randomBytes(length).toString('hex').toUpperCase().slice(0, length);

/** A name like the ones CloudFormation generates: stack, logical id and a random suffix. */
function physicalName(ref: ResourceRef, maxLength: number): string {
  const tail = `-${suffix(12)}`;
  return `${ref.scope.stackName}-${ref.logicalId}`.slice(0, maxLength - tail.length) + tail;
}

interface StandInValue {
  ref: string;
  attributes: Record<string, string>;
}

export interface InvocationRecord {
  fn: DeployedFunction;
  /** What invoked it: the HTTP API, a schedule, a deploy-time custom resource, a log subscription, or an event source mapping (a stream or a queue). */
  trigger: 'http' | 'schedule' | 'custom-resource' | 'subscription' | 'event-source';
  result: InvocationResult;
}

export interface CustomResourceOutcome {
  resource: CustomResource;
  request: Record<string, unknown>;
  invocation: InvocationResult;
  /** What the function sent to the pre-signed response URL, as CloudFormation would read it. */
  response: { headers: IncomingMessage['headers']; body: string } | undefined;
}

export interface FunctionOutput {
  stdout: string;
  stderr: string;
}

export interface DeployOptions {
  assembly: CloudAssembly;
  /** The root stack to deploy, with its nested stacks. */
  stackName: string;
  endpoints: StandInEndpoints;
  /** Sees every response the gateways send. */
  inspect?: ResponseInspector;
}

interface Gateway {
  api: ResourceRef;
  url: string;
  server: Server;
}

/** Matches a request to a route key the way HTTP APIs do: literal segments before variables, then `$default`. */
function matchRoute(routes: HttpRoute[], method: string, path: string) {
  const segments = path.split('/');
  let best: { route: HttpRoute; params: Record<string, string>; score: string } | undefined;
  for (const route of routes) {
    const [routeMethod = '', routePath = ''] = route.routeKey.split(' ');
    if (route.routeKey === '$default' || (routeMethod !== method && routeMethod !== 'ANY')) continue;
    const pattern = routePath.split('/');
    const params: Record<string, string> = {};
    let score = '';
    let matched = pattern.length === segments.length;
    for (let i = 0; matched && i < pattern.length; i++) {
      const part = pattern[i] ?? '';
      const segment = segments[i] ?? '';
      const variable = /^\{(.+?)(\+?)\}$/.exec(part);
      if (variable?.[2]) {
        params[variable[1] ?? ''] = segments.slice(i).join('/');
        matched = segment !== '' || i < segments.length - 1;
        score += '0';
        break;
      }
      if (variable) {
        params[variable[1] ?? ''] = segment;
        matched = segment !== '';
        score += '1';
      } else {
        matched = part === segment;
        score += '2';
      }
    }
    if (!matched) continue;
    score += routeMethod === 'ANY' ? '0' : '1';
    if (!best || score > best.score) best = { route, params, score };
  }
  if (best) return best;
  const fallback = routes.find((route) => route.routeKey === '$default');
  return fallback ? { route: fallback, params: {}, score: '' } : undefined;
}

async function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

const listen = (server: Server) =>
  new Promise<string>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () =>
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
    );
  });

const close = (server: Server) =>
  new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });

export class LocalDeployment {
  readonly invocations: InvocationRecord[] = [];
  readonly customResources: CustomResourceOutcome[] = [];
  /** The stand-in names of the stack's tables, buckets and secrets, by logical id path. */
  readonly tables = new Map<string, string>();
  readonly buckets = new Map<string, string>();
  readonly secrets = new Map<string, string>();
  readonly gateways: Gateway[] = [];
  private readonly standIns = new Map<string, StandInValue>();
  private readonly outputs = new Map<DeployedFunction, FunctionOutput>();
  private readonly environments = new Map<DeployedFunction, Promise<LambdaEnvironment>>();
  private readonly variables = new Map<DeployedFunction, Record<string, string>>();
  private readonly responses = new Map<string, { headers: IncomingMessage['headers']; body: string }>();
  private responseServer: Server | undefined;
  private responseUrl = '';
  private readonly scopes: StackScope[];
  private readonly routes: HttpRoute[];
  readonly functions: DeployedFunction[];
  readonly schedules: Schedule[];
  readonly subscriptions: LogSubscription[];
  /** Every log group of the stack, by logical id: created in moto under these names. */
  readonly logGroups = new Map<string, string>();

  private constructor(private readonly options: DeployOptions) {
    const { assembly, stackName } = options;
    this.scopes = assembly.stacks.filter((scope) => scope.stackName === stackName);
    if (this.scopes.length === 0) throw new Error(`the assembly has no stack ${stackName}`);
    this.functions = assembly.functions.filter((fn) => fn.scope.stackName === stackName);
    this.routes = assembly.routes.filter((route) => route.api.scope.stackName === stackName);
    this.schedules = assembly.schedules.filter((schedule) => schedule.rule.scope.stackName === stackName);
    this.subscriptions = assembly.subscriptions.filter((s) => s.filter.scope.stackName === stackName);
  }

  static async deploy(options: DeployOptions): Promise<LocalDeployment> {
    const deployment = new LocalDeployment(options);
    try {
      await deployment.createResources();
      for (const fn of deployment.functions) deployment.variables.set(fn, deployment.environmentFor(fn));
      await deployment.createCustomResources();
    } catch (error) {
      await deployment.stop();
      throw error;
    }
    return deployment;
  }

  private resources(): ResourceRef[] {
    return this.scopes.flatMap((scope) =>
      Object.entries(scope.template.Resources ?? {}).map(([logicalId, resource]) => ({
        scope,
        logicalId,
        resource,
      })),
    );
  }

  private resolve(value: unknown, scope: StackScope, what: string): unknown {
    return resolveValue(
      this.options.assembly.stacks,
      value,
      scope,
      (ref, attribute) => {
        const standIn = this.standIns.get(key(ref));
        const resolved = attribute === undefined ? standIn?.ref : standIn?.attributes[attribute];
        if (resolved === undefined) {
          throw new Error(
            `${what} refers to ${attribute ? `${attribute} of ` : ''}${ref.resource.Type} ${key(ref)}, which has no local stand-in`,
          );
        }
        return resolved;
      },
      PSEUDO,
    );
  }

  private async createResources() {
    const { endpoints } = this.options;
    const region = this.scopes[0]?.region ?? 'eu-west-1';
    const clientSettings = { region, credentials: CREDENTIALS };
    const dynamodb = new DynamoDBClient({ ...clientSettings, endpoint: endpoints.AWS_ENDPOINT_URL_DYNAMODB });
    const s3 = new S3Client({
      ...clientSettings,
      endpoint: endpoints.AWS_ENDPOINT_URL_S3,
      forcePathStyle: true,
    });
    const secrets = new SecretsManagerClient({
      ...clientSettings,
      endpoint: endpoints.AWS_ENDPOINT_URL_SECRETS_MANAGER,
    });
    const logs = new CloudWatchLogsClient({
      ...clientSettings,
      endpoint: endpoints.AWS_ENDPOINT_URL_CLOUDWATCH_LOGS,
    });
    try {
      for (const ref of this.resources()) {
        const arn = (service: string, resource: string) =>
          `arn:aws:${service}:${ref.scope.region}:${ACCOUNT_ID}:${resource}`;
        const set = (value: StandInValue) => this.standIns.set(key(ref), value);
        const properties = ref.resource.Properties ?? {};
        switch (ref.resource.Type) {
          case 'AWS::DynamoDB::Table': {
            const name = await this.createTable(dynamodb, ref);
            this.tables.set(key(ref), name);
            set({ ref: name, attributes: { Arn: arn('dynamodb', `table/${name}`) } });
            break;
          }
          case 'AWS::S3::Bucket': {
            const name = physicalName(ref, 63).toLowerCase();
            await s3.send(new CreateBucketCommand({ Bucket: name }));
            this.buckets.set(key(ref), name);
            set({
              ref: name,
              attributes: { Arn: `arn:aws:s3:::${name}`, DomainName: `${name}.s3.amazonaws.com` },
            });
            break;
          }
          case 'AWS::SecretsManager::Secret': {
            const given = properties.SecretString;
            const created = await secrets.send(
              new CreateSecretCommand({
                Name: `${ref.logicalId}-${suffix(6)}`,
                // Like GenerateSecretString: a random placeholder until something writes the real value.
                SecretString:
                  given === undefined
                    ? randomBytes(24).toString('base64url')
                    : String(this.resolve(given, ref.scope, key(ref))),
              }),
            );
            this.secrets.set(key(ref), created.ARN as string);
            set({ ref: created.ARN as string, attributes: {} });
            break;
          }
          case 'AWS::Lambda::Function': {
            const name = physicalName(ref, 64);
            set({ ref: name, attributes: { Arn: arn('lambda', `function:${name}`) } });
            break;
          }
          case 'AWS::Logs::LogGroup': {
            const name = String(properties.LogGroupName ?? `/aws/lambda/${physicalName(ref, 200)}`);
            await logs.send(new CreateLogGroupCommand({ logGroupName: name }));
            this.logGroups.set(key(ref), name);
            set({ ref: name, attributes: { Arn: arn('logs', `log-group:${name}:*`) } });
            break;
          }
          case 'AWS::Events::Rule': {
            const name = physicalName(ref, 64);
            set({ ref: name, attributes: { Arn: arn('events', `rule/${name}`) } });
            break;
          }
          case 'AWS::ApiGatewayV2::Api': {
            const gateway = await this.startGateway(ref);
            const id = suffix(10).toLowerCase();
            set({ ref: id, attributes: { ApiEndpoint: gateway.url, ApiId: id } });
            break;
          }
        }
      }
    } finally {
      dynamodb.destroy();
      s3.destroy();
      secrets.destroy();
      logs.destroy();
    }
  }

  /** The table as the template defines it; encryption, backups and deletion protection are AWS's alone. */
  private async createTable(client: DynamoDBClient, ref: ResourceRef): Promise<string> {
    const name = physicalName(ref, 255);
    const schema = this.resolve(
      Object.fromEntries(
        [
          'KeySchema',
          'AttributeDefinitions',
          'BillingMode',
          'ProvisionedThroughput',
          'GlobalSecondaryIndexes',
          'LocalSecondaryIndexes',
          'TimeToLiveSpecification',
        ].flatMap((field) => {
          const value = ref.resource.Properties?.[field];
          return value === undefined ? [] : [[field, value]];
        }),
      ),
      ref.scope,
      key(ref),
    ) as Omit<CreateTableCommandInput, 'TableName'> & {
      TimeToLiveSpecification?: { AttributeName: string; Enabled: boolean };
    };
    const { TimeToLiveSpecification: timeToLive, ...table } = schema;
    await client.send(new CreateTableCommand({ ...table, TableName: name }));
    await waitUntilTableExists({ client, maxWaitTime: 60 }, { TableName: name });
    if (timeToLive?.Enabled) {
      await client.send(
        new UpdateTimeToLiveCommand({
          TableName: name,
          TimeToLiveSpecification: { AttributeName: timeToLive.AttributeName, Enabled: true },
        }),
      );
    }
    return name;
  }

  private async startGateway(api: ResourceRef): Promise<Gateway> {
    const routes = this.routes.filter((route) => key(route.api) === key(api));
    const inspect = this.options.inspect;
    const server = createServer((req, res) => {
      const path = new URL(req.url ?? '/', 'http://localhost').pathname;
      const match = matchRoute(routes, req.method ?? 'GET', path);
      const failed = (status: number, message: string) =>
        write(
          req,
          res,
          {
            statusCode: status,
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ message }),
          },
          inspect,
        );
      readBody(req)
        .then(async (body) => {
          if (!body) return failed(413, 'Request Entity Too Large');
          if (!match) return failed(404, 'Not Found');
          const [method = '', routePath = ''] = match.route.routeKey.split(' ');
          const event = toEvent(
            req,
            body,
            match.route.routeKey === '$default' ? undefined : { method, path: routePath },
            match.params,
          );
          const result = await this.invoke(match.route.fn, 'http', event, event.requestContext.requestId);
          // A function that failed is a 500 with API Gateway's own body; what failed is in the invocations.
          if (!result.ok) return failed(500, 'Internal Server Error');
          write(req, res, result.payload as Parameters<typeof write>[2], inspect);
        })
        .catch(() => {
          if (!res.headersSent) failed(500, 'Internal Server Error');
          else res.destroy();
        });
    });
    const gateway = { api, server, url: await listen(server) };
    this.gateways.push(gateway);
    return gateway;
  }

  /** The function's whole environment: the template's variables, then Lambda's, then the stand-ins'. */
  private environmentFor(fn: DeployedFunction): Record<string, string> {
    const template: Record<string, string> = {};
    for (const [name, value] of Object.entries(fn.environment)) {
      if (RESERVED.has(name)) throw new Error(`${fn.name}: Lambda refuses the reserved variable ${name}`);
      template[name] = String(this.resolve(value, fn.scope, `${fn.name} variable ${name}`));
    }
    const name = this.standIns.get(key(fn))?.ref ?? fn.logicalId;
    const logGroup = fn.resource.Properties?.LoggingConfig as { LogGroup?: unknown } | undefined;
    const date = new Date().toISOString().slice(0, 10).replace(/-/g, '/');
    const lambda: Record<string, string> = {
      AWS_REGION: fn.scope.region,
      AWS_DEFAULT_REGION: fn.scope.region,
      AWS_EXECUTION_ENV: `AWS_Lambda_${fn.runtime}`,
      AWS_LAMBDA_FUNCTION_NAME: name,
      AWS_LAMBDA_FUNCTION_VERSION: '$LATEST',
      AWS_LAMBDA_FUNCTION_MEMORY_SIZE: String(fn.memorySize),
      AWS_LAMBDA_INITIALIZATION_TYPE: 'on-demand',
      AWS_LAMBDA_LOG_GROUP_NAME:
        logGroup?.LogGroup === undefined
          ? `/aws/lambda/${name}`
          : String(this.resolve(logGroup.LogGroup, fn.scope, `${fn.name} log group`)),
      AWS_LAMBDA_LOG_STREAM_NAME: `${date}/[$LATEST]${randomUUID().replace(/-/g, '')}`,
      AWS_ACCESS_KEY_ID: CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: CREDENTIALS.secretAccessKey,
      AWS_SESSION_TOKEN: CREDENTIALS.sessionToken,
      LAMBDA_TASK_ROOT: fn.assetDir,
      _HANDLER: fn.handler,
      LANG: 'en_US.UTF-8',
      TZ: ':UTC',
      PATH: '/usr/local/bin:/usr/bin:/bin',
      // Lambda's NODE_PATH also names its layers' and runtime's folders, none of which exist here: a bundle
      // must carry what it imports (the runtime's own copy of the AWS SDK is not offered either).
      NODE_PATH: fn.assetDir,
    };
    const endpoints = this.options.endpoints as unknown as Record<string, string>;
    for (const variable of Object.keys(endpoints)) {
      if (variable in template) throw new Error(`${fn.name}: the template already sets ${variable}`);
    }
    return { ...template, ...lambda, ...endpoints };
  }

  /** The environment a function runs with, for tests that check it. */
  environmentOf(fn: DeployedFunction): Record<string, string> {
    const variables = this.variables.get(fn);
    if (!variables) throw new Error(`${fn.name} is not a function of this deployment`);
    return variables;
  }

  /** What a function wrote to its log (stdout and stderr), over all its environments. */
  output(fn: DeployedFunction): FunctionOutput {
    return this.outputs.get(fn) ?? { stdout: '', stderr: '' };
  }

  private environment(fn: DeployedFunction): Promise<LambdaEnvironment> {
    const existing = this.environments.get(fn);
    if (existing) {
      this.environments.delete(fn);
      this.environments.set(fn, existing);
      return existing.then((env) => (env.alive ? env : this.startEnvironment(fn)));
    }
    return this.startEnvironment(fn);
  }

  private startEnvironment(fn: DeployedFunction): Promise<LambdaEnvironment> {
    const output = this.outputs.get(fn) ?? { stdout: '', stderr: '' };
    this.outputs.set(fn, output);
    const started = LambdaEnvironment.start({
      name: fn.name,
      nodeBinary: nodeForRuntime(fn.runtime).binary,
      taskRoot: fn.assetDir,
      memorySize: fn.memorySize,
      timeoutSeconds: fn.timeoutSeconds,
      invokedFunctionArn: this.standIns.get(key(fn))?.attributes.Arn ?? fn.logicalId,
      environment: this.environmentOf(fn),
      onOutput: (stream, text) => {
        output[stream] += text;
      },
    });
    this.environments.delete(fn);
    this.environments.set(fn, started);
    started.catch(() => this.environments.delete(fn));
    for (const [other, env] of this.environments) {
      if (this.environments.size <= WARM_ENVIRONMENTS) break;
      this.environments.delete(other);
      void env.then((e) => e.stop()).catch(() => undefined);
    }
    return started;
  }

  /** Invokes a function as its trigger would, starting an environment when none is warm. */
  async invoke(
    fn: DeployedFunction,
    trigger: InvocationRecord['trigger'],
    event: unknown,
    requestId: string = randomUUID(),
  ): Promise<InvocationResult> {
    let result: InvocationResult;
    try {
      result = await (await this.environment(fn)).invoke(event, requestId);
    } catch (error) {
      result = {
        ok: false,
        error: { errorType: 'Runtime.InitError', errorMessage: String((error as Error).message), trace: [] },
      };
    }
    this.invocations.push({ fn, trigger, result });
    return result;
  }

  /** EventBridge's scheduled event for a rule (or the target's constant input), sent to its function. */
  runSchedule(schedule: Schedule, time: Date = new Date()): Promise<InvocationResult> {
    const { scope } = schedule.rule;
    const event =
      schedule.input === undefined
        ? {
            version: '0',
            id: randomUUID(),
            'detail-type': 'Scheduled Event',
            source: 'aws.events',
            account: ACCOUNT_ID,
            time: time.toISOString().replace(/\.\d{3}Z$/, 'Z'),
            region: scope.region,
            resources: [this.resolve({ 'Fn::GetAtt': [schedule.rule.logicalId, 'Arn'] }, scope, 'rule')],
            detail: {},
          }
        : JSON.parse(String(this.resolve(schedule.input, scope, `${key(schedule.rule)} input`)));
    return this.invoke(schedule.fn, 'schedule', event);
  }

  /**
   * What CloudWatch Logs does for a subscription filter: the lines the stack's functions wrote (they all
   * log into the one function log group) that match the filter's pattern, gzipped and base64-encoded as a
   * DATA_MESSAGE, sent to its destination function. Takes the `{ $.<field> = "<value>" }` patterns only.
   */
  deliverSubscription(subscription: LogSubscription): Promise<InvocationResult> {
    const match = /^\{ \$\.(\w+) = "([^"]*)" \}$/.exec(subscription.pattern);
    if (!match) throw new Error(`the stand-in cannot match the filter pattern ${subscription.pattern}`);
    const [, field = '', value] = match;
    const logEvents = this.functions.flatMap((fn) =>
      this.output(fn)
        .stdout.split('\n')
        .filter((line) => {
          try {
            return (JSON.parse(line) as Record<string, unknown>)[field] === value;
          } catch {
            return false;
          }
        })
        .map((message) => ({ id: randomUUID(), timestamp: Date.now(), message })),
    );
    const logGroup = String(this.resolve(subscription.logGroup, subscription.filter.scope, 'log group'));
    const data = {
      messageType: 'DATA_MESSAGE',
      owner: ACCOUNT_ID,
      logGroup,
      logStream: `${new Date().toISOString().slice(0, 10).replaceAll('-', '/')}/stand-in[$LATEST]${suffix(8)}`,
      subscriptionFilters: [subscription.filter.logicalId],
      logEvents,
    };
    const event = { awslogs: { data: gzipSync(JSON.stringify(data)).toString('base64') } };
    return this.invoke(subscription.fn, 'subscription', event);
  }

  /**
   * Creates the stack's custom resources in template order, as CloudFormation does before the resources
   * that depend on them: a Create event to the function, which answers on a pre-signed response URL.
   */
  private async createCustomResources() {
    const resources = this.options.assembly.customResources.filter(
      (r) => r.scope.stackName === this.options.stackName,
    );
    if (resources.length === 0) return;
    this.responseServer = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        this.responses.set(new URL(req.url ?? '/', 'http://localhost').pathname, {
          headers: req.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        });
        res.writeHead(req.method === 'PUT' ? 200 : 405).end();
      });
    });
    this.responseUrl = await listen(this.responseServer);
    for (const resource of resources) {
      const { scope, logicalId } = resource;
      const requestId = randomUUID();
      const stackId = `arn:aws:cloudformation:${scope.region}:${ACCOUNT_ID}:stack/${scope.stackName}/${randomUUID()}`;
      const responsePath = `/cloudformation-custom-resource-response-${scope.region.replace(/-/g, '')}/${encodeURIComponent(`${stackId}|${logicalId}|${requestId}`)}`;
      const properties = this.resolve(resource.resource.Properties ?? {}, scope, key(resource)) as Record<
        string,
        unknown
      >;
      const request = {
        RequestType: 'Create',
        ServiceToken: properties.ServiceToken,
        ResponseURL: `${this.responseUrl}${responsePath}?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Date=${new Date().toISOString().replace(/[-:]|\.\d{3}/g, '')}&X-Amz-SignedHeaders=host&X-Amz-Expires=7200&X-Amz-Signature=${suffix(64).toLowerCase()}`,
        StackId: stackId,
        RequestId: requestId,
        LogicalResourceId: logicalId,
        ResourceType: resource.resource.Type,
        ResourceProperties: properties,
      };
      const invocation = await this.invoke(resource.fn, 'custom-resource', request);
      this.customResources.push({
        resource,
        request,
        invocation,
        response: this.responses.get(responsePath),
      });
    }
  }

  async stop(): Promise<void> {
    const environments = [...this.environments.values()];
    this.environments.clear();
    await Promise.all(environments.map((env) => env.then((e) => e.stop()).catch(() => undefined)));
    await Promise.all(this.gateways.map((gateway) => close(gateway.server)));
    if (this.responseServer) await close(this.responseServer);
  }
}
