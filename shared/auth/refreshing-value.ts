// A value read from a store and kept for a while: the token issuer's signing key and the verifier's key
// set. It is read on first use and read again once it is older than its refresh period, one read at a time.
export type Clock = () => number;

export class RefreshingValue<T> {
  private held: { value: T; readAt: number } | undefined;
  private reading: Promise<T> | undefined;

  constructor(
    private readonly read: () => Promise<T>,
    /** How long a value is used before it is read again; 0 reads it on every use. */
    private readonly refreshMs: number,
    private readonly now: Clock,
    /** How old a value may be and still be used when it cannot be read again; no limit by default. */
    private readonly maxAgeMs = Number.POSITIVE_INFINITY,
  ) {}

  /**
   * The value, read again first when it is older than the refresh period. A failed re-read keeps the value
   * in hand while it is younger than its limit (the next use tries again), so a passing outage of the
   * store does not fail what it can serve.
   */
  async get(): Promise<T> {
    const held = this.held;
    if (held && this.now() - held.readAt < this.refreshMs) return held.value;
    try {
      return await this.refresh();
    } catch (error) {
      if (held && this.now() - held.readAt < this.maxAgeMs) return held.value;
      throw error;
    }
  }

  /** How long ago the value in hand was read; infinite before the first read. */
  age(): number {
    return this.held ? this.now() - this.held.readAt : Number.POSITIVE_INFINITY;
  }

  /** Reads the value now, or joins the read under way; its failure is the caller's. */
  refresh(): Promise<T> {
    if (!this.reading) {
      // The value is as old as the moment the read began: a change made during the read may be missing.
      const startedAt = this.now();
      this.reading = this.read()
        .then((value) => {
          this.held = { value, readAt: startedAt };
          return value;
        })
        .finally(() => {
          this.reading = undefined;
        });
    }
    return this.reading;
  }
}
