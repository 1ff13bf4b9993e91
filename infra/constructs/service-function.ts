// The one place a tenant's Lambda functions get their settings: runtime, architecture, the shared
// esbuild bundling, source maps, JSON logs into the tenant's one log group, and a role of its own whose
// whole grant is written inline: writing to that log group plus the statements the caller passes.
import { Duration } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as logs from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { acknowledge } from '../nag-acknowledgements';
import { FUNCTION_HANDLER, functionCode } from './function-code';

export interface ServiceFunctionProps {
  /** The TypeScript module whose `handler` export Lambda calls. */
  entry: string;
  description: string;
  environment: Record<string, string>;
  /**
   * The tenant's function log group. Every function writes there, each in streams named after it
   * (`YYYY/MM/DD/<function name>[$LATEST]…`), so one retention, one metric filter and one place to search
   * cover them all.
   */
  logGroup: logs.ILogGroup;
  /** Everything the function may do beyond writing its logs. */
  statements: iam.PolicyStatement[];
  /** Most handlers wait on DynamoDB; the custom resource and the scheduled export get longer. */
  timeout?: Duration;
  /** The scheduled export compresses whole groups and gets more CPU with more memory. */
  memorySize?: number;
  /**
   * X-Ray active tracing (the tenant's `tracing`): Lambda records each invocation's segment, with no
   * tracing library in the bundle (docs/deploy.md says why not Powertools Tracer).
   */
  tracing?: boolean;
}

/** What active tracing needs; X-Ray grants it on no narrower resource. */
const xrayStatement = () =>
  new iam.PolicyStatement({
    actions: ['xray:PutTraceSegments', 'xray:PutTelemetryRecords'],
    resources: ['*'],
  });

export class ServiceFunction extends lambda.Function {
  constructor(scope: Construct, id: string, props: ServiceFunctionProps) {
    // An explicit role instead of the managed AWSLambdaBasicExecutionRole, whose log grant covers every
    // log group of the account. Its policy is inline: a separate AWS::IAM::Policy per function would only
    // add a resource, since nothing the grant names depends on the function.
    const role = new iam.Role(scope, `${id}Role`, {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      description: `Execution role of ${props.description}`,
      inlinePolicies: {
        access: new iam.PolicyDocument({
          statements: [
            new iam.PolicyStatement({
              actions: ['logs:CreateLogStream', 'logs:PutLogEvents'],
              resources: [props.logGroup.logGroupArn],
            }),
            ...props.statements,
            ...(props.tracing ? [xrayStatement()] : []),
          ],
        }),
      },
    });
    super(scope, id, {
      code: functionCode(props.entry),
      handler: FUNCTION_HANDLER,
      description: props.description,
      runtime: lambda.Runtime.NODEJS_22_X,
      architecture: lambda.Architecture.ARM_64,
      // CPU grows with memory; 512 MB keeps the cold start of a bundled handler near its 100 ms load.
      memorySize: props.memorySize ?? 512,
      timeout: props.timeout ?? Duration.seconds(10),
      role,
      logGroup: props.logGroup,
      // JSON system logs carry each invocation's outcome (`platform.report`, `record.status`), which the
      // tenant's failure metric counts. The service filters its own lines by LOG_LEVEL, so Lambda passes
      // every application line through.
      loggingFormat: lambda.LoggingFormat.JSON,
      systemLogLevelV2: lambda.SystemLogLevel.INFO,
      applicationLogLevelV2: lambda.ApplicationLogLevel.TRACE,
      environment: { ...props.environment, NODE_OPTIONS: '--enable-source-maps' },
    });
    acknowledge(this, 'runtime');
    // Set on the template's function rather than through `tracing`, which would add the same grant as
    // a policy resource of its own per function; the role's inline policy already holds it.
    if (props.tracing) {
      (this.node.defaultChild as lambda.CfnFunction).tracingConfig = { mode: lambda.Tracing.ACTIVE };
      acknowledge(role, 'xrayTraces', 'Resource::*');
    }
  }
}
