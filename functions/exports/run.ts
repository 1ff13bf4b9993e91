// The scheduled export (EventBridge rule, cron from the tenant's configuration): one snapshot of every
// group under exports/<scheduled time>/ of the tenant's export bucket. A retry of the same event
// writes the same run again from the start, and does nothing once that run has its manifest.
import type { Context, ScheduledEvent } from 'aws-lambda';
import { runIdAt } from '../../shared/exports/manifest';
import { exportServices } from '../../shared/exports/services';

/** Stop this long before Lambda's limit, so a run that cannot finish fails cleanly instead of being killed. */
const SAFETY_MARGIN_MS = 30_000;

export const handler = async (
  event: Pick<ScheduledEvent, 'time'>,
  context: Pick<Context, 'getRemainingTimeInMillis'>,
) => {
  const { exporter, bucketStore } = exportServices();
  const runId = runIdAt(new Date(event.time));
  const result = await exporter.run({
    runId,
    store: bucketStore(runId),
    deadline: Date.now() + context.getRemainingTimeInMillis() - SAFETY_MARGIN_MS,
  });
  return { status: result.status, location: result.location };
};
