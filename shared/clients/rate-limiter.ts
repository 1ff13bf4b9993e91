// A caller's budget of requests per UTC minute, shared by every process of the tenant without a
// DynamoDB round trip on most requests. Each process leases units from the minute's shared counter in
// batches and spends them locally; batches grow with what the process spends and shrink as the shared
// count nears the limit, so the units a process leased but never spent (the only way admissions fall
// short of the limit) stay few however many processes serve the caller, and a unit
// is only ever granted out of what the counter had left, so admissions never exceed it. The requests it
// decides are tallied per client, day and route group, and written along with the next claim.

import { utcDay, utcMinute } from '../domain/instants';

/** The shared counters the limiter leases from and reports usage to (RateRepository in a tenant). */
export interface RateCounter {
  /** Adds `n` to the caller's window of `minute` (`YYYY-MM-DDTHH:MM`) and returns its total after the add. */
  claim(caller: string, minute: string, n: number, expiresAtEpochSeconds: number): Promise<number>;
  /** Adds a client's requests of `day` (`YYYY-MM-DD`), by route group, and its refusals. */
  addUsage(
    clientId: string,
    day: string,
    requests: ReadonlyMap<string, number>,
    refused: number,
  ): Promise<void>;
}

export interface RateDecision {
  allowed: boolean;
  /** Requests a minute. */
  limit: number;
  /** Requests the caller may still make this minute, as far as this process knows. */
  remaining: number;
  /** Whole seconds until the minute ends and the budget comes back, at least 1. */
  resetSeconds: number;
}

export interface RateLimiterOptions {
  /** The clock, in epoch milliseconds. */
  now?: () => number;
  /** How long a count may wait for a claim to carry it before it is written on its own; 0 writes each at once. */
  usageFlushMs?: number;
}

/** The window is fixed: one UTC minute. */
export const WINDOW_SECONDS = 60;
const WINDOW_MS = WINDOW_SECONDS * 1000;
/** A window item outlives its minute by this much, so a process a little behind still finds its count. */
const WINDOW_KEPT_MS = WINDOW_MS;
/** The largest batch is this share of the limit: 24 units a claim at the default 1,200 a minute. */
const LARGEST_BATCH_DIVISOR = 50;
/** A batch takes at most this share of what the shared count has left, so processes strand few units. */
const LEFT_DIVISOR = 8;

/** What this process knows of one caller's window. */
interface Window {
  minute: string;
  /** Units granted to this process and not spent yet. */
  leased: number;
  /** The shared count as this process last saw it: it only grows within a minute. */
  seenTotal: number;
  /** Units this process has spent on the caller this minute. */
  spent: number;
  /** The claim under way, which every request of the caller that finds no unit waits for. */
  claiming?: Promise<void>;
}

/** Requests of one client and day, by route group, and refusals, not written yet. */
interface Tally {
  clientId: string;
  day: string;
  requests: Map<string, number>;
  refused: number;
}

const minuteEnd = (minute: string) => Date.parse(`${minute}:00Z`) + WINDOW_MS;

/**
 * Units to claim: no more than this process has already spent on the caller this minute (so a process
 * the caller barely uses, one of the many functions of a tenant, strands at most a unit or two, and a busy
 * one doubles its batches), smaller as the shared count nears the limit, never fewer than one.
 */
const batchSize = (limit: number, seenTotal: number, spent: number) =>
  Math.max(
    1,
    Math.min(spent, Math.ceil(limit / LARGEST_BATCH_DIVISOR), Math.floor((limit - seenTotal) / LEFT_DIVISOR)),
  );

export class RateLimiter {
  private readonly now: () => number;
  private readonly usageFlushMs: number;
  /** By caller: the window of the current minute (windows of past minutes are dropped as it turns). */
  private readonly windows = new Map<string, Window>();
  private currentMinute = '';
  /** By client and day. */
  private tallies = new Map<string, Tally>();
  /** When the oldest count not written yet was made. */
  private oldestUnflushed: number | undefined;

  constructor(
    private readonly counter: RateCounter,
    options: RateLimiterOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.usageFlushMs = options.usageFlushMs ?? 10_000;
  }

  /** Decides one request of `caller`, and counts it (or its refusal) in the usage of `usage.clientId`. */
  async admit(
    caller: string,
    limit: number,
    usage: { clientId: string; group: string },
  ): Promise<RateDecision> {
    const window = this.windowOf(caller, utcMinute(this.now()));
    const allowed = await this.take(window, caller, limit);
    const at = this.now();
    const decision = {
      allowed,
      limit,
      remaining: Math.max(0, limit - window.seenTotal) + window.leased,
      resetSeconds: Math.max(1, Math.ceil((minuteEnd(window.minute) - at) / 1000)),
    };
    this.count(usage, allowed, at);
    if (this.oldestUnflushed !== undefined && at - this.oldestUnflushed >= this.usageFlushMs) {
      await this.flushUsage();
    }
    return decision;
  }

  private windowOf(caller: string, minute: string): Window {
    if (minute !== this.currentMinute) {
      for (const [key, window] of this.windows) if (window.minute !== minute) this.windows.delete(key);
      this.currentMinute = minute;
    }
    let window = this.windows.get(caller);
    if (!window) {
      window = { minute, leased: 0, seenTotal: 0, spent: 0 };
      this.windows.set(caller, window);
    }
    return window;
  }

  /** Spends a leased unit, claiming a batch when none is left; false once the shared count has none. */
  private async take(window: Window, caller: string, limit: number): Promise<boolean> {
    for (;;) {
      if (window.leased > 0) {
        window.leased--;
        window.spent++;
        return true;
      }
      // The shared count only grows within a minute, so a count at the limit grants nothing more.
      if (window.seenTotal >= limit) return false;
      if (!window.claiming) {
        window.claiming = this.claim(window, caller, limit).finally(() => {
          window.claiming = undefined;
        });
      }
      await window.claiming;
    }
  }

  private async claim(window: Window, caller: string, limit: number): Promise<void> {
    const batch = batchSize(limit, window.seenTotal, window.spent);
    const expires = Math.ceil((minuteEnd(window.minute) + WINDOW_KEPT_MS) / 1000);
    const [total] = await Promise.all([
      this.counter.claim(caller, window.minute, batch, expires),
      this.flushUsage(),
    ]);
    // Of this batch, only what the count had left before it is granted: the rest went past the limit.
    window.leased += Math.min(batch, Math.max(0, limit - (total - batch)));
    window.seenTotal = Math.max(window.seenTotal, total);
  }

  private count({ clientId, group }: { clientId: string; group: string }, allowed: boolean, at: number) {
    const day = utcDay(at);
    const key = `${clientId}#${day}`;
    let tally = this.tallies.get(key);
    if (!tally) {
      tally = { clientId, day, requests: new Map(), refused: 0 };
      this.tallies.set(key, tally);
    }
    if (allowed) tally.requests.set(group, (tally.requests.get(group) ?? 0) + 1);
    else tally.refused++;
    this.oldestUnflushed ??= at;
  }

  /** Writes every count not written yet; a write that fails puts its counts back for the next flush. */
  private async flushUsage(): Promise<void> {
    if (this.tallies.size === 0) return;
    const tallies = [...this.tallies.values()];
    const oldest = this.oldestUnflushed;
    this.tallies = new Map();
    this.oldestUnflushed = undefined;
    await Promise.all(
      tallies.map((tally) =>
        this.counter
          .addUsage(tally.clientId, tally.day, tally.requests, tally.refused)
          .catch((error: unknown) => {
            this.putBack(tally, oldest);
            throw error;
          }),
      ),
    );
  }

  private putBack(tally: Tally, since: number | undefined) {
    const key = `${tally.clientId}#${tally.day}`;
    const current = this.tallies.get(key);
    if (current) {
      for (const [group, n] of tally.requests)
        current.requests.set(group, (current.requests.get(group) ?? 0) + n);
      current.refused += tally.refused;
    } else {
      this.tallies.set(key, tally);
    }
    if (since !== undefined) this.oldestUnflushed = Math.min(this.oldestUnflushed ?? since, since);
  }
}
