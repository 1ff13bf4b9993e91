// The scheduled export (EventBridge rule, cron from the tenant's configuration): one snapshot of every
// group under exports/<scheduled time>/ of the tenant's export bucket, and from the second run on the
// OneRoster delta zip since the run before. A retry of the same event writes the same run again from the
// start, and does nothing once that run has its manifest.
import type { Context, ScheduledEvent } from 'aws-lambda';
import { nextDeltaSince, runIdAt } from '../../shared/exports/manifest';
import { exportServices } from '../../shared/exports/services';

/** Stop this long before Lambda's limit, so a run that cannot finish fails cleanly instead of being killed. */
const SAFETY_MARGIN_MS = 30_000;

export const handler = async (
  event: Pick<ScheduledEvent, 'time'>,
  context: Pick<Context, 'getRemainingTimeInMillis'>,
) => {
  const { config, exporter, bucketStore, previousManifest } = exportServices();
  const runId = runIdAt(new Date(event.time));
  // Each run after the first also writes the OneRoster delta since the one before it.
  const previous = await previousManifest(runId);
  const result = await exporter.run({
    runId,
    store: bucketStore(runId),
    deadline: Date.now() + context.getRemainingTimeInMillis() - SAFETY_MARGIN_MS,
    deltaSince: previous && nextDeltaSince(previous, config.syncLagMs),
  });
  return { status: result.status, location: result.location };
};
