// When a failed delivery is tried again (docs/events.md): exponential backoff from WEBHOOK_RETRY_BASE_MS
// (30 s deployed), doubling to at most WEBHOOK_LONGEST_WAIT_MS, each wait a quarter either way at random
// so that the retries of many events spread out instead of arriving together: about a day over
// WEBHOOK_ATTEMPTS attempts. An event that fails its last attempt is dead-lettered and its subscription
// disabled.

/** Attempts of one event, the first included. */
export const WEBHOOK_ATTEMPTS = 15;
/** The longest wait between two attempts, before jitter (SQS's longest visibility timeout is 12 hours). */
export const WEBHOOK_LONGEST_WAIT_MS = 4 * 3_600_000;

/** The wait after the `attempt`th attempt failed (1 is the first), before jitter. */
export const retryMeanMs = (attempt: number, baseMs: number) =>
  Math.min(WEBHOOK_LONGEST_WAIT_MS, baseMs * 2 ** (attempt - 1));

/** The wait after the `attempt`th attempt failed: its mean, a quarter either way at random. */
export function retryDelayMs(attempt: number, baseMs: number, random = Math.random): number {
  return Math.round(retryMeanMs(attempt, baseMs) * (0.75 + random() / 2));
}
