// The one place a tenant's Lambda functions get their settings: runtime, architecture, the shared
// esbuild bundling, source maps, an explicit log group with the tenant's retention, and a role that
// starts with nothing but writing to that log group. Grants are added per function by the caller.
import { Duration, type RemovalPolicy } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { LogLevel, NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { ESM_REQUIRE_BANNER, esbuildOptions } from '../bundling';
import { acknowledge } from '../nag-acknowledgements';

export interface ServiceFunctionProps {
  /** The TypeScript module whose `handler` export Lambda calls. */
  entry: string;
  description: string;
  environment: Record<string, string>;
  logRetention: logs.RetentionDays;
  /** What happens to the function's logs when the stack is deleted. */
  logRemovalPolicy: RemovalPolicy;
  /** Most handlers wait on DynamoDB; the custom resource and the scheduled export get longer. */
  timeout?: Duration;
  /** The scheduled export compresses whole groups and gets more CPU with more memory. */
  memorySize?: number;
}

export class ServiceFunction extends NodejsFunction {
  constructor(scope: Construct, id: string, props: ServiceFunctionProps) {
    const logGroup = new logs.LogGroup(scope, `${id}Logs`, {
      retention: props.logRetention,
      removalPolicy: props.logRemovalPolicy,
    });
    // An explicit role instead of the managed AWSLambdaBasicExecutionRole, whose log grant covers
    // every log group of the account: this one may write to its own log group only.
    const role = new iam.Role(scope, `${id}Role`, {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      description: `Execution role of ${props.description}`,
    });
    role.addToPolicy(
      new iam.PolicyStatement({
        actions: ['logs:CreateLogStream', 'logs:PutLogEvents'],
        resources: [logGroup.logGroupArn],
      }),
    );
    super(scope, id, {
      entry: props.entry,
      handler: 'handler',
      description: props.description,
      runtime: lambda.Runtime.NODEJS_22_X,
      architecture: lambda.Architecture.ARM_64,
      // CPU grows with memory; 512 MB keeps the cold start of a bundled handler near its 100 ms load.
      memorySize: props.memorySize ?? 512,
      timeout: props.timeout ?? Duration.seconds(10),
      role,
      logGroup,
      environment: { ...props.environment, NODE_OPTIONS: '--enable-source-maps' },
      bundling: {
        format: OutputFormat.ESM,
        target: esbuildOptions.target,
        mainFields: [...esbuildOptions.mainFields],
        minify: esbuildOptions.minify,
        sourceMap: esbuildOptions.sourcemap,
        banner: ESM_REQUIRE_BANNER,
        // The benchmarks measure bundles with the SDK inside; ship the same artefact.
        bundleAwsSDK: true,
        externalModules: [],
        // Sizes are reported once by `npm run bundle-report`, not per function and stack at synth.
        logLevel: LogLevel.WARNING,
      },
    });
    acknowledge(this, 'runtime');
  }
}
