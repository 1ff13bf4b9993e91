// A tenant's alarms: five of them, seven alarm metrics, whatever the number of routes. One counts every
// failed invocation of any of the tenant's functions from their shared log group, so no alarm is added
// per function; the others watch the 5xx rate, Lambda throttling, the export schedule and the change
// events that ended in a dead-letter queue.
import { Duration } from 'aws-cdk-lib';
import type * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type * as events from 'aws-cdk-lib/aws-events';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as kms from 'aws-cdk-lib/aws-kms';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as subscriptions from 'aws-cdk-lib/aws-sns-subscriptions';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import type { Tenant } from './tenants';

/** Alarm when more than this share of a 5-minute window's requests end in a 5xx. */
const SERVER_ERROR_PERCENT = 5;

/**
 * Lambda's JSON system log line at the end of every invocation, when it did not end well: an error the
 * handler did not turn into a response, a timeout, running out of memory, a failed start.
 */
export const failedInvocationPattern = logs.FilterPattern.all(
  logs.FilterPattern.stringValue('$.type', '=', 'platform.report'),
  logs.FilterPattern.stringValue('$.record.status', '!=', 'success'),
);

/** Where the tenant's failure count is published: a namespace of its own, so tenants sharing an account don't mix. */
export const failureMetricNamespace = (tenantId: string) => `SchoolApi/${tenantId}`;

export interface TenantAlarmsProps {
  tenant: Tenant;
  key: kms.IKey;
  api: apigw.HttpApi;
  /** The log group every function of the tenant writes to (infra/constructs/service-function.ts). */
  functionLogs: logs.ILogGroup;
  exportSchedule: events.Rule;
  /** Where change events end that could not be delivered or made (infra/tenant-events.ts). */
  deadLetterQueues: sqs.IQueue[];
}

export function addTenantAlarms(scope: Construct, props: TenantAlarmsProps): void {
  const { tenant, key, api, functionLogs, exportSchedule, deadLetterQueues } = props;
  const topic = new sns.Topic(scope, 'AlarmTopic', {
    displayName: `School API alarms of tenant ${tenant.id}`,
    masterKey: key,
    enforceSSL: true,
  });
  // CloudWatch publishes to the encrypted topic, so it may use the key for that.
  key.grant(new iam.ServicePrincipal('cloudwatch.amazonaws.com'), 'kms:Decrypt', 'kms:GenerateDataKey');
  if (tenant.alarmEmail) topic.addSubscription(new subscriptions.EmailSubscription(tenant.alarmEmail));
  const notify = new SnsAction(topic);
  const window = { period: Duration.minutes(5), statistic: cloudwatch.Stats.SUM };
  const anyInWindow = {
    threshold: 1,
    comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    evaluationPeriods: 1,
    treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
  };

  // Published only when a failure is logged (no default value), so at rest the metric costs nothing.
  const failures = new logs.MetricFilter(scope, 'FunctionFailures', {
    logGroup: functionLogs,
    filterPattern: failedInvocationPattern,
    metricNamespace: failureMetricNamespace(tenant.id),
    metricName: 'FunctionFailures',
    metricValue: '1',
  });
  failures
    .metric(window)
    .createAlarm(scope, 'FunctionFailuresAlarm', {
      alarmDescription:
        `A function of tenant ${tenant.id} failed outside its error handling (an unhandled error, a timeout, ` +
        'out of memory): a route, the scheduled export (that run has no manifest), the signing-key resource or ' +
        'a change events function (a stream batch is retried, a delivery tried again). ' +
        'Which one: Logs Insights on the function log group, `filter type = "platform.report" and ' +
        'record.status != "success" | stats count() by @logStream` (streams are named after the function).',
      ...anyInWindow,
    })
    .addAlarmAction(notify);

  new cloudwatch.MathExpression({
    expression: 'IF(requests > 0, 100 * errors / requests, 0)',
    usingMetrics: { errors: api.metricServerError(window), requests: api.metricCount(window) },
    period: window.period,
    label: '5xx responses (%)',
  })
    .createAlarm(scope, 'ServerErrorRateAlarm', {
      alarmDescription: `More than ${SERVER_ERROR_PERCENT}% of requests to tenant ${tenant.id} ended in 5xx`,
      threshold: SERVER_ERROR_PERCENT,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 2,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    })
    .addAlarmAction(notify);

  // Throttling comes from the concurrency pool every function of the account and region shares, so one
  // alarm on the pool's throttles covers this tenant's functions (and says when another tenant starves it).
  lambda.Function.metricAllThrottles(window)
    .createAlarm(scope, 'LambdaThrottlesAlarm', {
      alarmDescription: `Lambda throttled functions in this account and region, which tenant ${tenant.id} shares`,
      ...anyInWindow,
    })
    .addAlarmAction(notify);

  // A run that started and failed is a function failure above; this is the run that never started.
  new cloudwatch.Metric({
    namespace: 'AWS/Events',
    metricName: 'FailedInvocations',
    dimensionsMap: { RuleName: exportSchedule.ruleName },
    ...window,
  })
    .createAlarm(scope, 'ExportScheduleFailedAlarm', {
      alarmDescription: `EventBridge could not start the scheduled export of tenant ${tenant.id}`,
      ...anyInWindow,
    })
    .addAlarmAction(notify);

  // In alarm for as long as a message waits there: each is an event a subscriber never got, or a batch
  // of table changes that made no events, until an operator redrives or removes it (docs/deploy.md).
  // SQS publishes nothing for an idle, empty queue: a missing point of one queue counts as none.
  new cloudwatch.MathExpression({
    expression: deadLetterQueues.map((_queue, i) => `FILL(q${i}, 0)`).join(' + '),
    usingMetrics: Object.fromEntries(
      deadLetterQueues.map((queue, i) => [
        `q${i}`,
        queue.metricApproximateNumberOfMessagesVisible({ ...window, statistic: cloudwatch.Stats.MAXIMUM }),
      ]),
    ),
    period: window.period,
    label: 'Dead-lettered change events and failed stream batches',
  })
    .createAlarm(scope, 'EventDeadLettersAlarm', {
      alarmDescription:
        `Change events of tenant ${tenant.id} wait in a dead-letter queue: deliveries that failed every ` +
        'attempt (their subscription is disabled), or stream batches that made no events (docs/deploy.md).',
      ...anyInWindow,
    })
    .addAlarmAction(notify);
}
