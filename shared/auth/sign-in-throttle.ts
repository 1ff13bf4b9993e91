// Slows down and then locks out guessing at the sign-in form, per account and per client address. Every
// attempt is counted before its password is checked, and one the counters do not admit is refused
// without checking it, so guesses sent all at once get no more checks than guesses sent one by one.
// An account is counted whichever of its names was typed; a name no account has is counted by itself,
// so the answers say nothing about which names exist. Each failure slows the account's next attempt
// (250 ms a failure); 5 attempts within 15 minutes lock the account for 15 minutes from the fifth, unless
// one of them succeeds; a sign-in that asks for a TOTP code succeeds only with its code, so until then its
// password and codes count as attempts alike; 100 failures from one address lock the address. The address limit is high
// because a school's pupils and staff often share one public address: a few pupils mistyping must not
// lock the whole school out, while spraying one password across many names still is.
import {
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
} as const;

/** An admitted attempt's place in its counters, which its success forgives. */
export interface Ticket {
  account: { subject: string; state: ThrottleState };
  address: { subject: string; state: ThrottleState };
}

export type Gate =
  | { admitted: false; retryAfterSeconds: number }
  | { admitted: true; delayMs: number; ticket: Ticket };

/** The attempts a window counts against its subject: those it holds beyond what was forgiven. */
export const countedAttempts = (state: ThrottleState, limit: number) =>
  Math.max(0, state.attempts - (state.allowed - limit));

/** When a refusing state admits again: the end of its lock, or of its full window. */
const reopensAt = (state: ThrottleState) =>
  Math.max(
    state.locked_until ? Date.parse(state.locked_until) : 0,
    Date.parse(state.window_started) + SIGN_IN_LIMITS.windowMs,
  );

export class SignInThrottle {
  constructor(private readonly counters: SignInThrottleRepository) {}

  /**
   * Counts an attempt against its account (or unknown name) and its address, and says whether its
   * password may be checked, and after how long. `accountSubject` is the account's subject when the
   * name belongs to one, else the name's.
   */
  async admit(accountSubject: string, sourceIp: string, now = new Date()): Promise<Gate> {
    const windowStart = new Date(now.getTime() - SIGN_IN_LIMITS.windowMs);
    // Kept until both a window that starts now and a lock that starts now are over.
    const expiresAt = new Date(now.getTime() + SIGN_IN_LIMITS.lockMs + SIGN_IN_LIMITS.windowMs);
    const count = async (subject: string, limit: number) => ({
      subject,
      ...(await this.counters.admit(subject, { now, windowStart, limit, expiresAt })),
    });
    const [account, address] = await Promise.all([
      count(accountSubject, SIGN_IN_LIMITS.accountFailures),
      count(addressThrottleSubject(sourceIp), SIGN_IN_LIMITS.addressFailures),
    ]);
    if (!account.admitted || !address.admitted) {
      // The other counter may have admitted an attempt whose password will not be checked: give it back.
      const admitted = [account, address].filter((a) => a.admitted);
      await Promise.all(admitted.map((a) => this.counters.release(a.subject, a.state.window_started)));
      const reopens = Math.max(
        ...[account, address].filter((a) => !a.admitted).map((a) => reopensAt(a.state)),
      );
      // Concurrent attempts read each other's clocks: one that started a moment before the attempt that
      // locked would otherwise be told to wait a second longer than any lock or window lasts.
      const longest = Math.max(SIGN_IN_LIMITS.lockMs, SIGN_IN_LIMITS.windowMs);
      const waitMs = Math.min(longest, reopens - now.getTime());
      return { admitted: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
    }
    // The attempt that fills a window locks its subject; its own password is still checked.
    const lockedUntil = new Date(now.getTime() + SIGN_IN_LIMITS.lockMs);
    await Promise.all(
      [account, address]
        .filter((a) => a.state.attempts >= a.state.allowed)
        .map((a) => this.counters.lock(a.subject, a.state.window_started, lockedUntil, expiresAt)),
    );
    // At most 4 failures come before an admitted attempt: it waits at most a second.
    const failuresBefore = Math.max(0, countedAttempts(account.state, SIGN_IN_LIMITS.accountFailures) - 1);
    return {
      admitted: true,
      delayMs: failuresBefore * SIGN_IN_LIMITS.delayPerFailureMs,
      ticket: {
        account: { subject: account.subject, state: account.state },
        address: { subject: address.subject, state: address.state },
      },
    };
  }

  /**
   * A right password with a second factor still to come gives its attempt back to the address (it was
   * no failed guess), while the account keeps it counted until the whole sign-in succeeds: wrong codes
   * after a right password count against the account as wrong passwords do, and lock it alike.
   */
  async passwordAccepted({ address }: Ticket): Promise<void> {
    await this.counters.release(address.subject, address.state.window_started);
  }

  /**
   * A successful sign-in forgives the account's attempts up to its own (those counted after it still
   * count) and gives its own attempt back to the address, which keeps its failures.
   */
  async succeeded({ account, address }: Ticket): Promise<void> {
    await Promise.all([
      this.counters.forgiveUpTo(
        account.subject,
        account.state.window_started,
        account.state.attempts,
        SIGN_IN_LIMITS.accountFailures,
      ),
      this.counters.release(address.subject, address.state.window_started),
    ]);
  }
}
