// Reads a synthesized cloud assembly (cdk.out) as CloudFormation and Lambda see it: every stack template
// with its nested stacks, every function with its bundled asset, and what invokes each function (an HTTP
// API route, a schedule, a custom resource). It knows CloudFormation, not this project's construct names,
// so it reads the stacks whatever their layout.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

interface Resource {
  Type: string;
  Properties?: Record<string, unknown>;
  Metadata?: Record<string, unknown>;
}

interface Template {
  Resources?: Record<string, Resource>;
  Parameters?: Record<string, { Default?: unknown }>;
  Outputs?: Record<string, { Value: unknown }>;
}

/** One template: a stack the assembly deploys, or a nested stack inside one. */
export interface StackScope {
  /** The stack's display path, `School-x` or `School-x/Records`. */
  path: string;
  /** The root stack's name, as `cdk deploy` names it. */
  stackName: string;
  /** The root stack's tags. */
  tags: Record<string, string>;
  region: string;
  template: Template;
  /** The parent template and the `AWS::CloudFormation::Stack` resource that creates this one. */
  parent?: { scope: StackScope; logicalId: string };
}

/** A resource of some template of the assembly. */
export interface ResourceRef {
  scope: StackScope;
  logicalId: string;
  resource: Resource;
}

export interface DeployedFunction extends ResourceRef {
  /** The construct path CDK records, for messages: `School-x/ListStudents/Resource`. */
  name: string;
  /** The unzipped asset Lambda runs: the bundle's directory. */
  assetDir: string;
  /** `index.handler`: the module (file name without extension) and its export. */
  handler: string;
  /** `nodejs22.x`. */
  runtime: string;
  memorySize: number;
  timeoutSeconds: number;
  /** Environment.Variables as the template writes them, references included. */
  environment: Record<string, unknown>;
}

export interface HttpRoute {
  /** The API (`AWS::ApiGatewayV2::Api`) the route belongs to. */
  api: ResourceRef;
  /** `GET /api/students/{student_id}` or `$default`. */
  routeKey: string;
  fn: DeployedFunction;
}

export interface Schedule {
  rule: ResourceRef;
  /** `cron(...)` or `rate(...)`. */
  expression: string;
  /** The target's constant input, sent instead of the scheduled event when the rule sets one. */
  input: unknown;
  fn: DeployedFunction;
}

export interface CustomResource extends ResourceRef {
  fn: DeployedFunction;
}

/** A CloudWatch Logs subscription filter whose destination is a function of the stack. */
export interface LogSubscription {
  filter: ResourceRef;
  /** The log group it reads, as the template names it (a `Ref`). */
  logGroup: unknown;
  pattern: string;
  fn: DeployedFunction;
}

export interface CloudAssembly {
  directory: string;
  stacks: StackScope[];
  functions: DeployedFunction[];
  routes: HttpRoute[];
  schedules: Schedule[];
  customResources: CustomResource[];
  subscriptions: LogSubscription[];
}

interface Manifest {
  artifacts: Record<
    string,
    {
      type: string;
      environment?: string;
      displayName?: string;
      properties?: { templateFile?: string; tags?: Record<string, string> };
    }
  >;
}

const PSEUDO_PARAMETER = /^AWS::/;

const readJson = <T>(file: string): T => JSON.parse(readFileSync(file, 'utf8')) as T;

/** The root stacks of the manifest and every nested stack below them, parents first. */
function readStacks(directory: string): StackScope[] {
  const manifest = readJson<Manifest>(join(directory, 'manifest.json'));
  const scopes: StackScope[] = [];
  const visit = (scope: StackScope) => {
    scopes.push(scope);
    for (const [logicalId, resource] of Object.entries(scope.template.Resources ?? {})) {
      if (resource.Type !== 'AWS::CloudFormation::Stack') continue;
      const file = resource.Metadata?.['aws:asset:path'];
      if (typeof file !== 'string' || resource.Metadata?.['aws:asset:property'] !== 'TemplateURL') {
        throw new Error(`${scope.path}/${logicalId}: a nested stack without its template in the assembly`);
      }
      visit({
        path: `${scope.path}/${logicalId}`,
        stackName: scope.stackName,
        tags: scope.tags,
        region: scope.region,
        template: readJson<Template>(join(directory, file)),
        parent: { scope, logicalId },
      });
    }
  };
  for (const [id, artifact] of Object.entries(manifest.artifacts)) {
    if (artifact.type !== 'aws:cloudformation:stack') continue;
    const templateFile = artifact.properties?.templateFile;
    if (!templateFile) throw new Error(`stack ${id} names no template file`);
    const region = /^aws:\/\/[^/]+\/(.+)$/.exec(artifact.environment ?? '')?.[1];
    if (!region || region === 'unknown-region') throw new Error(`stack ${id} has no region`);
    visit({
      path: artifact.displayName ?? id,
      stackName: id,
      tags: artifact.properties?.tags ?? {},
      region,
      template: readJson<Template>(join(directory, templateFile)),
    });
  }
  return scopes;
}

function resourceOf(scope: StackScope, logicalId: string): ResourceRef | undefined {
  const resource = scope.template.Resources?.[logicalId];
  return resource ? { scope, logicalId, resource } : undefined;
}

function nestedScope(stacks: StackScope[], parent: StackScope, logicalId: string): StackScope {
  const nested = stacks.find((s) => s.parent?.scope === parent && s.parent.logicalId === logicalId);
  if (!nested) throw new Error(`${parent.path}/${logicalId} is not a nested stack of the assembly`);
  return nested;
}

/** `Fn::GetAtt` as an array or as the `Resource.Attribute` string form. */
function getAttParts(value: unknown): [string, string] {
  if (typeof value === 'string') {
    const dot = value.indexOf('.');
    return [value.slice(0, dot), value.slice(dot + 1)];
  }
  if (Array.isArray(value) && typeof value[0] === 'string' && typeof value[1] === 'string') {
    return [value[0], value[1]];
  }
  throw new Error(`Fn::GetAtt of an unexpected shape: ${JSON.stringify(value)}`);
}

/**
 * The value a nested stack's parameter is given, or a nested stack's output, as the template that
 * defines it writes it: the way CloudFormation passes references across templates.
 */
interface Indirection {
  value: unknown;
  scope: StackScope;
}

function parameterValue(scope: StackScope, name: string): Indirection | undefined {
  const parameter = scope.template.Parameters?.[name];
  if (!parameter) return undefined;
  if (scope.parent) {
    const { scope: parentScope, logicalId } = scope.parent;
    const given = parentScope.template.Resources?.[logicalId]?.Properties?.Parameters as
      | Record<string, unknown>
      | undefined;
    if (given?.[name] !== undefined) return { value: given[name], scope: parentScope };
  }
  if (parameter.Default === undefined) throw new Error(`${scope.path}: no value for parameter ${name}`);
  return { value: parameter.Default, scope };
}

function outputValue(stacks: StackScope[], scope: StackScope, logicalId: string, attribute: string) {
  const name = attribute.replace(/^Outputs\./, '');
  const nested = nestedScope(stacks, scope, logicalId);
  const output = nested.template.Outputs?.[name];
  if (!output) throw new Error(`${nested.path} has no output ${name}`);
  return { value: output.Value, scope: nested };
}

/**
 * The resources a value refers to (through `Ref`, `Fn::GetAtt` and `Fn::Sub`), following nested stacks'
 * parameters and outputs to the template that defines each resource.
 */
function referencedResources(stacks: StackScope[], value: unknown, scope: StackScope): ResourceRef[] {
  const found: ResourceRef[] = [];
  const byName = (name: string, attribute: string | undefined, at: StackScope) => {
    if (PSEUDO_PARAMETER.test(name)) return;
    const parameter = parameterValue(at, name);
    if (parameter) {
      walk(parameter.value, parameter.scope);
      return;
    }
    const ref = resourceOf(at, name);
    if (!ref) throw new Error(`${at.path}: a reference to ${name}, which the template does not define`);
    if (ref.resource.Type === 'AWS::CloudFormation::Stack' && attribute?.startsWith('Outputs.')) {
      const output = outputValue(stacks, at, name, attribute);
      walk(output.value, output.scope);
      return;
    }
    found.push(ref);
  };
  const walk = (node: unknown, at: StackScope): void => {
    if (Array.isArray(node)) {
      for (const item of node) walk(item, at);
      return;
    }
    if (node === null || typeof node !== 'object') return;
    const entries = Object.entries(node);
    const [key, argument] = entries[0] ?? [];
    if (entries.length === 1 && key === 'Ref' && typeof argument === 'string') {
      byName(argument, undefined, at);
      return;
    }
    if (entries.length === 1 && key === 'Fn::GetAtt') {
      const [name, attribute] = getAttParts(argument);
      byName(name, attribute, at);
      return;
    }
    if (entries.length === 1 && key === 'Fn::Sub') {
      const [text, variables = {}] = Array.isArray(argument) ? argument : [argument];
      for (const [, name = ''] of String(text).matchAll(/\$\{([^!}][^}]*)\}/g)) {
        if (name in (variables as object)) continue;
        const [resource = '', ...attribute] = name.split('.');
        byName(resource, attribute.length > 0 ? attribute.join('.') : undefined, at);
      }
      walk(variables, at);
      return;
    }
    for (const [, child] of entries) walk(child, at);
  };
  walk(value, scope);
  return found;
}

const sameResource = (a: ResourceRef, b: ResourceRef) => a.scope === b.scope && a.logicalId === b.logicalId;

/** Every `AWS::Lambda::Function` of the assembly, with the asset directory its code comes from. */
function readFunctions(directory: string, stacks: StackScope[]): DeployedFunction[] {
  const functions: DeployedFunction[] = [];
  for (const scope of stacks) {
    for (const [logicalId, resource] of Object.entries(scope.template.Resources ?? {})) {
      if (resource.Type !== 'AWS::Lambda::Function') continue;
      const name = String(resource.Metadata?.['aws:cdk:path'] ?? `${scope.path}/${logicalId}`);
      const asset = resource.Metadata?.['aws:asset:path'];
      if (typeof asset !== 'string' || resource.Metadata?.['aws:asset:property'] !== 'Code') {
        throw new Error(`${name}: its code is not an asset of the assembly`);
      }
      const properties = resource.Properties ?? {};
      const environment = (properties.Environment as { Variables?: Record<string, unknown> } | undefined)
        ?.Variables;
      functions.push({
        scope,
        logicalId,
        resource,
        name,
        assetDir: join(directory, asset),
        handler: String(properties.Handler),
        runtime: String(properties.Runtime),
        // CloudFormation's defaults for a function that sets neither.
        memorySize: Number(properties.MemorySize ?? 128),
        timeoutSeconds: Number(properties.Timeout ?? 3),
        environment: environment ?? {},
      });
    }
  }
  return functions;
}

/** The single function a value (an integration URI, a target ARN, a service token) points at. */
function functionOf(stacks: StackScope[], functions: DeployedFunction[], value: unknown, scope: StackScope) {
  const refs = referencedResources(stacks, value, scope);
  const fn = functions.find((f) => refs.some((ref) => sameResource(ref, f)));
  if (!fn || refs.length !== 1) {
    throw new Error(`${scope.path}: ${JSON.stringify(value)} does not name exactly one function`);
  }
  return fn;
}

function resourcesOfType(stacks: StackScope[], test: (type: string) => boolean): ResourceRef[] {
  return stacks.flatMap((scope) =>
    Object.entries(scope.template.Resources ?? {})
      .filter(([, resource]) => test(resource.Type))
      .map(([logicalId, resource]) => ({ scope, logicalId, resource })),
  );
}

/** HTTP API routes to their Lambda proxy integrations' functions. */
function readRoutes(stacks: StackScope[], functions: DeployedFunction[]): HttpRoute[] {
  return resourcesOfType(stacks, (type) => type === 'AWS::ApiGatewayV2::Route').map((route) => {
    const properties = route.resource.Properties ?? {};
    const [api] = referencedResources(stacks, properties.ApiId, route.scope);
    const [integration] = referencedResources(stacks, properties.Target, route.scope);
    if (!api || !integration || integration.resource.Type !== 'AWS::ApiGatewayV2::Integration') {
      throw new Error(`${route.scope.path}/${route.logicalId}: a route without an API or an integration`);
    }
    const target = integration.resource.Properties ?? {};
    if (target.IntegrationType !== 'AWS_PROXY' || target.PayloadFormatVersion !== '2.0') {
      throw new Error(`${integration.logicalId}: not a Lambda proxy integration with payload 2.0`);
    }
    return {
      api,
      routeKey: String(properties.RouteKey),
      fn: functionOf(stacks, functions, target.IntegrationUri, integration.scope),
    };
  });
}

function readSchedules(stacks: StackScope[], functions: DeployedFunction[]): Schedule[] {
  return resourcesOfType(stacks, (type) => type === 'AWS::Events::Rule').flatMap((rule) => {
    const properties = rule.resource.Properties ?? {};
    if (typeof properties.ScheduleExpression !== 'string') return [];
    const targets = (properties.Targets ?? []) as { Arn: unknown; Input?: unknown }[];
    return targets.map((target) => ({
      rule,
      expression: properties.ScheduleExpression as string,
      input: target.Input,
      fn: functionOf(stacks, functions, target.Arn, rule.scope),
    }));
  });
}

function readSubscriptions(stacks: StackScope[], functions: DeployedFunction[]): LogSubscription[] {
  return resourcesOfType(stacks, (type) => type === 'AWS::Logs::SubscriptionFilter').map((filter) => {
    const properties = filter.resource.Properties ?? {};
    return {
      filter,
      logGroup: properties.LogGroupName,
      pattern: String(properties.FilterPattern),
      fn: functionOf(stacks, functions, properties.DestinationArn, filter.scope),
    };
  });
}

function readCustomResources(stacks: StackScope[], functions: DeployedFunction[]): CustomResource[] {
  return resourcesOfType(
    stacks,
    (type) => type.startsWith('Custom::') || type === 'AWS::CloudFormation::CustomResource',
  ).map((ref) => ({
    ...ref,
    fn: functionOf(stacks, functions, ref.resource.Properties?.ServiceToken, ref.scope),
  }));
}

export function readCloudAssembly(directory: string): CloudAssembly {
  const stacks = readStacks(directory);
  const functions = readFunctions(directory, stacks);
  return {
    directory,
    stacks,
    functions,
    routes: readRoutes(stacks, functions),
    schedules: readSchedules(stacks, functions),
    customResources: readCustomResources(stacks, functions),
    subscriptions: readSubscriptions(stacks, functions),
  };
}

/** What a resource stands for in the local deployment: its `Ref` (no attribute) or one `Fn::GetAtt`. */
type StandIn = (ref: ResourceRef, attribute: string | undefined) => string;

export interface Pseudo {
  accountId: string;
  partition: string;
  urlSuffix: string;
}

function pseudoParameter(name: string, scope: StackScope, pseudo: Pseudo): string {
  const values: Record<string, string> = {
    'AWS::Region': scope.region,
    'AWS::AccountId': pseudo.accountId,
    'AWS::Partition': pseudo.partition,
    'AWS::URLSuffix': pseudo.urlSuffix,
    'AWS::StackName': scope.stackName,
  };
  const value = values[name];
  if (value === undefined) throw new Error(`${scope.path}: no value for the pseudo parameter ${name}`);
  return value;
}

/**
 * A template value as CloudFormation would deploy it, with every resource it refers to replaced by its
 * stand-in. Throws on anything it cannot resolve, so a new kind of reference fails the test by name.
 */
export function resolveValue(
  stacks: StackScope[],
  value: unknown,
  scope: StackScope,
  standIn: StandIn,
  pseudo: Pseudo,
): unknown {
  const byName = (name: string, attribute: string | undefined, at: StackScope): unknown => {
    if (PSEUDO_PARAMETER.test(name)) return pseudoParameter(name, at, pseudo);
    const parameter = parameterValue(at, name);
    if (parameter) return resolve(parameter.value, parameter.scope);
    const ref = resourceOf(at, name);
    if (!ref) throw new Error(`${at.path}: a reference to ${name}, which the template does not define`);
    if (ref.resource.Type === 'AWS::CloudFormation::Stack' && attribute?.startsWith('Outputs.')) {
      const output = outputValue(stacks, at, name, attribute);
      return resolve(output.value, output.scope);
    }
    return standIn(ref, attribute);
  };
  const resolve = (node: unknown, at: StackScope): unknown => {
    if (Array.isArray(node)) return node.map((item) => resolve(item, at));
    if (node === null || typeof node !== 'object') return node;
    const entries = Object.entries(node);
    const [key = '', argument] = entries[0] ?? [];
    if (entries.length !== 1 || (!key.startsWith('Fn::') && key !== 'Ref')) {
      return Object.fromEntries(entries.map(([name, child]) => [name, resolve(child, at)]));
    }
    switch (key) {
      case 'Ref':
        return byName(String(argument), undefined, at);
      case 'Fn::GetAtt': {
        const [name, attribute] = getAttParts(argument);
        return byName(name, attribute, at);
      }
      case 'Fn::Join': {
        const [separator, parts] = argument as [string, unknown[]];
        return (resolve(parts, at) as unknown[]).join(separator);
      }
      case 'Fn::Select': {
        const [index, list] = argument as [unknown, unknown];
        return (resolve(list, at) as unknown[])[Number(resolve(index, at))];
      }
      case 'Fn::Sub': {
        const [text, variables = {}] = Array.isArray(argument) ? argument : [argument];
        const given = resolve(variables, at) as Record<string, unknown>;
        return String(text).replace(/\$\{([^!}][^}]*)\}/g, (_whole, name: string) => {
          if (name in given) return String(given[name]);
          const [resource = '', ...attribute] = name.split('.');
          return String(byName(resource, attribute.length > 0 ? attribute.join('.') : undefined, at));
        });
      }
      default:
        throw new Error(`${at.path}: ${key} is not resolved by the local deployment`);
    }
  };
  return resolve(value, scope);
}
