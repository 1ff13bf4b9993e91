// One area of the route table as a nested stack: for each of its routes, a function with its own role,
// the API Gateway route and integration, and the permission for that route to invoke it. An area is the
// first folder of a route's handler (`students/list` is in `students`), so a new record group or a new
// operation lands in its own or an existing area, and the tenant's root stack grows by one resource per
// area, not by five per route.
import { type CustomResource, NestedStack } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type * as logs from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import type { Route } from '../shared/route';
import { routeStatements, type TenantData } from './access';
import { handlerEntry } from './bundling';
import { ServiceFunction } from './constructs/service-function';
import { acknowledge } from './nag-acknowledgements';

/** The routes a stack serves: the route table (shared/routes.ts) unless a test passes another. */
export interface RouteTable {
  routes: readonly Route[];
  fallbackRoute: Route;
}

/** The area a route belongs to: the folder of its handler under functions/. */
export const areaOf = (route: Pick<Route, 'handler'>) => route.handler.split('/')[0] as string;

/** Every area of a route table, in the table's order, the fallback's last. */
export const areasOf = ({ routes, fallbackRoute }: RouteTable) => [
  ...new Set([...routes, fallbackRoute].map(areaOf)),
];

/** Construct ids from route ids and areas: `list-students` becomes `ListStudents`. */
export const constructId = (name: string) =>
  name.replace(/(^|-)([a-z])/g, (_match: string, _dash: string, letter: string) => letter.toUpperCase());

export interface RouteAreaStackProps {
  tenantId: string;
  area: string;
  routeTable: RouteTable;
  data: TenantData;
  api: apigw.IHttpApi;
  logGroup: logs.ILogGroup;
  /** Every route function's environment; the token function also gets the signing key's secret. */
  environment: Record<string, string>;
  /** Token functions start once the signing key exists. */
  signingKey: CustomResource;
  /** The tenant's X-Ray active tracing. */
  tracing: boolean;
}

export class RouteAreaStack extends NestedStack {
  constructor(scope: Construct, id: string, props: RouteAreaStackProps) {
    const { tenantId, area, routeTable, data, api, logGroup, environment, signingKey, tracing } = props;
    super(scope, id, { description: `School API of tenant ${tenantId}: the ${area} routes` });
    const { fallbackRoute } = routeTable;
    for (const route of [...routeTable.routes, fallbackRoute].filter((r) => areaOf(r) === area)) {
      const name = constructId(route.id);
      const fn = new ServiceFunction(this, name, {
        entry: handlerEntry(route),
        description: `${route.id}: ${route.method} ${route.path} of tenant ${tenantId}`,
        environment:
          route.access === 'sign'
            ? { ...environment, SIGNING_KEY_SECRET_ARN: data.signingKeySecret.secretArn }
            : environment,
        logGroup,
        statements: routeStatements(route, data),
        tracing,
      });
      if (route.access === 'sign') fn.node.addDependency(signingKey);
      const httpRoute = new apigw.HttpRoute(this, `${name}Route`, {
        httpApi: api,
        routeKey:
          route === fallbackRoute
            ? apigw.HttpRouteKey.DEFAULT
            : apigw.HttpRouteKey.with(route.path, apigw.HttpMethod[route.method]),
        integration: new HttpLambdaIntegration(`${name}Integration`, fn),
      });
      acknowledge(httpRoute, 'routeAuthorization');
    }
  }
}
