// How the table's stream hands its changes to the stream function: the deployed event source mapping
// (infra/tenant-events.ts) and the local run's stream reader (infra/local/event-delivery.ts) alike.

/** The most stream records a batch hands the stream function. */
export const STREAM_BATCH_SIZE = 100;

/** Retries of a failing stream batch, each split in two first, before it is set aside (the failed-batch queue). */
export const STREAM_RETRY_ATTEMPTS = 10;
