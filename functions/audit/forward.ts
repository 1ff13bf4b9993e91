// The audit forwarder: the subscription on the function log group sends it the functions' audit lines,
// and it writes them to the tenant's audit log group (AUDIT_LOG_GROUP), kept for the tenant's retention.
import { CloudWatchLogsClient } from '@aws-sdk/client-cloudwatch-logs';
import type { CloudWatchLogsEvent } from 'aws-lambda';
import { AuditGroupWriter } from '../../shared/audit/audit-group';
import { forwardAuditEvents } from '../../shared/audit/forwarder';

const logGroup = process.env.AUDIT_LOG_GROUP;
if (!logGroup) throw new Error('AUDIT_LOG_GROUP is not set: the stack sets it to the audit log group');
// Built at start: the forwarder has one job, and its client's streams are remembered across invocations.
const writer = new AuditGroupWriter(new CloudWatchLogsClient({ region: process.env.AWS_REGION }), logGroup);

export const handler = (event: CloudWatchLogsEvent) => forwardAuditEvents(event, writer);
