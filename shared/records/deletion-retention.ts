// How long a deletion is remembered: read by the deletion feeds and the 404-or-410 answer, written by the writer.

/** How long deletions stay listed at /deleted and a deleted id answers 410. */
export const DELETION_RETENTION_DAYS = 90;
