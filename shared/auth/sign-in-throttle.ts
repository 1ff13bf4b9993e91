// Slows down and then locks out guessing at the sign-in form, per account name and per client address.
// A name is counted whether or not an account has it, so the answers say nothing about which exist:
// each failure slows the name's next attempt (250 ms a failure, at most 2 s), 5 failures within 15
// minutes lock the name for 15 minutes, and 100 failures from one address lock the address. The address
// limit is high because a school's pupils and staff often share one public address: a few pupils
// mistyping must not lock the whole school out, while spraying one password across many names still is.
import {
  accountThrottleSubject,
  addressThrottleSubject,
  type SignInThrottleRepository,
  type ThrottleState,
} from '../data/sign-in-throttle-repository';

export const SIGN_IN_LIMITS = {
  windowMs: 15 * 60_000,
  lockMs: 15 * 60_000,
  accountFailures: 5,
  addressFailures: 100,
  delayPerFailureMs: 250,
  maxDelayMs: 2_000,
} as const;

export type Gate = { locked: true; retryAfterSeconds: number } | { locked: false; delayMs: number };

/** A counter's failures that still count at `now`. */
const failuresIn = (state: ThrottleState | undefined, now: number) =>
  state && Date.parse(state.window_started) > now - SIGN_IN_LIMITS.windowMs ? state.failures : 0;

export class SignInThrottle {
  constructor(private readonly counters: SignInThrottleRepository) {}

  /** Whether the name or the address is locked, and if not, how long to wait before checking the password. */
  async gate(name: string, sourceIp: string, now = new Date()): Promise<Gate> {
    const [account, address] = await Promise.all([
      this.counters.get(accountThrottleSubject(name)),
      this.counters.get(addressThrottleSubject(sourceIp)),
    ]);
    const lockedUntil = Math.max(
      ...[account, address].map((state) => (state?.locked_until ? Date.parse(state.locked_until) : 0)),
    );
    if (lockedUntil > now.getTime()) {
      return { locked: true, retryAfterSeconds: Math.ceil((lockedUntil - now.getTime()) / 1000) };
    }
    const failures = failuresIn(account, now.getTime());
    return {
      locked: false,
      delayMs: Math.min(failures * SIGN_IN_LIMITS.delayPerFailureMs, SIGN_IN_LIMITS.maxDelayMs),
    };
  }

  /** Counts a failed sign-in against the name and the address, locking either once it has too many. */
  async failed(name: string, sourceIp: string, now = new Date()): Promise<void> {
    const windowStart = new Date(now.getTime() - SIGN_IN_LIMITS.windowMs);
    const lockedUntil = new Date(now.getTime() + SIGN_IN_LIMITS.lockMs);
    // Kept until both a window that starts now and a lock that starts now are over.
    const expiresAt = new Date(lockedUntil.getTime() + SIGN_IN_LIMITS.windowMs);
    const count = async (subject: string, limit: number) => {
      const state = await this.counters.addFailure(subject, now, windowStart, expiresAt);
      if (state.failures >= limit) await this.counters.lock(subject, lockedUntil, expiresAt);
    };
    await Promise.all([
      count(accountThrottleSubject(name), SIGN_IN_LIMITS.accountFailures),
      count(addressThrottleSubject(sourceIp), SIGN_IN_LIMITS.addressFailures),
    ]);
  }

  /** A successful sign-in clears the name's failures; the address keeps its count. */
  async succeeded(name: string): Promise<void> {
    await this.counters.clear(accountThrottleSubject(name));
  }
}
