// Business metrics in CloudWatch's embedded metric format, by the Powertools for AWS Lambda Metrics: one
// EMF line on standard output per request, which CloudWatch turns into metrics with no API call (namespace
// SchoolApi, dimension `service` = the tenant). Requests and their errors by route; what a handler adds
// (sign-in failures, records written by group) and audit events that could not be written, in metrics
// of their own dimension.
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';

export const METRICS_NAMESPACE = 'SchoolApi';

/** A count a handler reports for its request, with the one dimension it is broken down by, if any. */
export interface BusinessCount {
  name: 'SignInFailures' | 'RecordsWritten' | 'AuditWriteFailures';
  value: number;
  dimension?: { name: 'group'; value: string };
}

export interface RequestMetrics {
  /** Publishes one request's metrics: its route, whether it failed, and the handler's counts. */
  request(route: string, status: number, counts: readonly BusinessCount[]): void;
}

export function createRequestMetrics(tenantId: string): RequestMetrics {
  const metrics = new Metrics({ namespace: METRICS_NAMESPACE, serviceName: tenantId });
  return {
    request(route, status, counts) {
      for (const count of counts) {
        const single = metrics.singleMetric();
        if (count.dimension) single.addDimension(count.dimension.name, count.dimension.value);
        single.addMetric(count.name, MetricUnit.Count, count.value);
      }
      metrics.addDimension('route', route);
      metrics.addMetric('Requests', MetricUnit.Count, 1);
      // 5xx are the service's failures; 4xx are refusals of what a client sent, counted apart.
      metrics.addMetric('Errors', MetricUnit.Count, status >= 500 ? 1 : 0);
      metrics.addMetric('ClientErrors', MetricUnit.Count, status >= 400 && status < 500 ? 1 : 0);
      metrics.publishStoredMetrics();
    },
  };
}
