// The local deployment reads stacks by CloudFormation's rules, not this project's layout: a small app
// with its function in a nested stack (a table name passed in as a parameter, the function's ARN passed
// out as an output to the route in the parent) deploys, and its routes reach the function with the
// template's variables resolved, matched as HTTP APIs match them.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, NestedStack, Stack } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type CloudAssembly, readCloudAssembly } from './support/cloud-assembly';
import { LocalDeployment } from './support/local-deployment';

/** Answers with what it was given: its table, the event's route and parameters, its runtime and root. */
const ECHO_HANDLER = `export const handler = async (event, context) => ({
  statusCode: 200,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({
    table: process.env.TABLE_NAME,
    routeKey: event.routeKey,
    pathParameters: event.pathParameters ?? null,
    remainingMs: context.getRemainingTimeInMillis(),
    node: process.versions.node,
    cwd: process.cwd(),
  }),
});
`;

let directory: string;
let assembly: CloudAssembly;
let deployment: LocalDeployment;

function synthesizeNestedApp(outdir: string, assetDir: string) {
  const app = new App({ outdir, context: { 'aws:cdk:enable-asset-metadata': true } });
  const stack = new Stack(app, 'Echo', { env: { region: 'eu-west-1' } });
  const table = new dynamodb.Table(stack, 'Table', {
    partitionKey: { name: 'pk', type: dynamodb.AttributeType.STRING },
    billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
    timeToLiveAttribute: 'ttl',
  });
  const functions = new NestedStack(stack, 'Functions');
  const fn = new lambda.Function(functions, 'Echo', {
    runtime: lambda.Runtime.NODEJS_22_X,
    handler: 'index.handler',
    code: lambda.Code.fromAsset(assetDir),
    environment: { TABLE_NAME: table.tableName },
  });
  const api = new apigw.HttpApi(stack, 'Api', { createDefaultStage: false });
  const integration = new HttpLambdaIntegration('Echo', fn);
  api.addRoutes({ path: '/items/{id}', methods: [apigw.HttpMethod.GET], integration });
  api.addRoutes({ path: '/items/special', methods: [apigw.HttpMethod.GET], integration });
  new apigw.HttpRoute(stack, 'Default', { httpApi: api, routeKey: apigw.HttpRouteKey.DEFAULT, integration });
  app.synth();
}

beforeAll(async () => {
  directory = mkdtempSync(join(tmpdir(), 'nested-app-'));
  const assetDir = join(directory, 'echo');
  mkdirSync(assetDir);
  writeFileSync(join(assetDir, 'index.mjs'), ECHO_HANDLER);
  synthesizeNestedApp(join(directory, 'cdk.out'), assetDir);
  assembly = readCloudAssembly(join(directory, 'cdk.out'));
  deployment = await LocalDeployment.deploy({
    assembly,
    stackName: 'Echo',
    // Only DynamoDB is used: the app has no bucket and no secret, so nothing listens at the others.
    endpoints: {
      AWS_ENDPOINT_URL_DYNAMODB: inject('dynamodbEndpoint'),
      AWS_ENDPOINT_URL_S3: 'http://127.0.0.1:9',
      AWS_ENDPOINT_URL_SECRETS_MANAGER: 'http://127.0.0.1:9',
      AWS_ENDPOINT_URL_CLOUDWATCH_LOGS: 'http://127.0.0.1:9',
    },
  });
}, 60_000);

afterAll(async () => {
  await deployment?.stop();
  if (directory) rmSync(directory, { recursive: true, force: true });
});

describe('a stack with nested stacks, deployed locally', () => {
  it('finds the function in the nested template and its routes in the parent', () => {
    expect(assembly.stacks.map((scope) => scope.parent?.scope.path)).toEqual([undefined, 'Echo']);
    expect(assembly.functions).toHaveLength(1);
    expect(assembly.functions[0]?.scope.parent?.scope.path).toBe('Echo');
    expect(assembly.routes.map((route) => route.routeKey).sort()).toEqual([
      '$default',
      'GET /items/special',
      'GET /items/{id}',
    ]);
    expect(new Set(assembly.routes.map((route) => route.fn))).toEqual(new Set(assembly.functions));
  });

  it('resolves a parameter of the nested stack to the stand-in of the parent’s table', () => {
    const [fn] = deployment.functions;
    const [table] = deployment.tables.values();
    expect(deployment.environmentOf(fn as NonNullable<typeof fn>).TABLE_NAME).toBe(table);
  });

  it('sends each request to the route HTTP APIs pick: literal segments first, then variables, then $default', async () => {
    const url = deployment.gateways[0]?.url;
    const echo = async (path: string) => (await fetch(`${url}${path}`)).json();
    expect(await echo('/items/special')).toMatchObject({
      routeKey: 'GET /items/special',
      pathParameters: null,
    });
    expect(await echo('/items/a%20b')).toMatchObject({
      routeKey: 'GET /items/{id}',
      pathParameters: { id: 'a b' },
    });
    expect(await echo('/elsewhere')).toMatchObject({ routeKey: '$default' });
    const answer = (await echo('/items/1')) as {
      table: string;
      remainingMs: number;
      node: string;
      cwd: string;
    };
    expect(answer.table).toBe([...deployment.tables.values()][0]);
    expect(answer.remainingMs).toBeGreaterThan(0);
    expect(answer.remainingMs).toBeLessThanOrEqual(3000);
    expect(answer.node.split('.')[0]).toBe('22');
    expect(answer.cwd).toBe(deployment.functions[0]?.assetDir);
  });
});
