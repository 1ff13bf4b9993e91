// Business metrics in CloudWatch's embedded metric format (EMF): one JSON line on standard output per
// request, which CloudWatch turns into metrics with no API call (namespace SchoolApi, dimension
// `service` = the tenant). Requests and their errors by route; what a handler adds (sign-in failures,
// records written by group) and audit events that could not be written, in lines of their own
// dimension. Written here rather than with the Powertools Metrics: the same lines for a fraction of its
// bundle and import time (docs/benchmarks.md, "What Powertools adds").

import type { RequestCount } from './http/request-count';

export const METRICS_NAMESPACE = 'SchoolApi';

/** The counts the service's handlers and observers report for a request, as the HTTP kernel carries them. */
export interface BusinessCount extends RequestCount {
  name: 'SignInFailures' | 'RecordsWritten' | 'AuditWriteFailures';
  value: number;
  dimension?: { name: 'group'; value: string };
}

export interface RequestMetrics {
  /** Publishes one request's metrics: its route, whether it failed, and the handler's counts. */
  request(route: string, status: number, counts: readonly RequestCount[]): void;
}

/**
 * One EMF line: the metrics (all counts) under one set of dimensions, whose values ride beside them as
 * the format's root members.
 */
export function emfLine(
  dimensions: Record<string, string>,
  counts: Record<string, number>,
  now = Date.now(),
) {
  return JSON.stringify({
    _aws: {
      Timestamp: now,
      CloudWatchMetrics: [
        {
          Namespace: METRICS_NAMESPACE,
          Dimensions: [Object.keys(dimensions)],
          Metrics: Object.keys(counts).map((Name) => ({ Name, Unit: 'Count' })),
        },
      ],
    },
    ...dimensions,
    ...counts,
  });
}

export function createRequestMetrics(
  tenantId: string,
  enabled = true,
  write = (line: string) => {
    process.stdout.write(`${line}\n`);
  },
): RequestMetrics {
  return {
    request(route, status, counts) {
      if (!enabled) return;
      for (const count of counts) {
        const dimensions: Record<string, string> = { service: tenantId };
        if (count.dimension) dimensions[count.dimension.name] = count.dimension.value;
        write(emfLine(dimensions, { [count.name]: count.value }));
      }
      write(
        emfLine(
          { service: tenantId, route },
          {
            Requests: 1,
            // 5xx are the service's failures; 4xx are refusals of what a client sent, counted apart.
            Errors: status >= 500 ? 1 : 0,
            ClientErrors: status >= 400 && status < 500 ? 1 : 0,
          },
        ),
      );
    },
  };
}
