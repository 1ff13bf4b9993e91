// Runs the scheduled export in the local run as EventBridge does in a deployed tenant: the same handler,
// on the same kind of crontab pattern in UTC, one run at a time.
import { Cron } from 'croner';
import { handler } from '../../functions/exports/run';

/** Lambda's limit, which the handler stops short of. */
const LAMBDA_LIMIT_MS = 15 * 60 * 1000;

export interface ExportSchedule {
  next(): Date | null;
  stop(): void;
}

export function startExportSchedule(
  pattern: string,
  report: (line: string) => void = (line) => console.error(line),
): ExportSchedule {
  const cron = new Cron(pattern, { timezone: 'Etc/UTC', protect: true }, async () => {
    const started = Date.now();
    // EventBridge names the minute a run is for; so does the run id.
    const time = new Date(Math.floor(started / 60_000) * 60_000).toISOString();
    try {
      const result = await handler(
        { time },
        { getRemainingTimeInMillis: () => LAMBDA_LIMIT_MS - (Date.now() - started) },
      );
      report(`Scheduled export ${result.status}: ${result.location}`);
    } catch (error) {
      report(`Scheduled export failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  });
  return { next: () => cron.nextRun(), stop: () => cron.stop() };
}
