// Refuses a person's access token once its sign-in is revoked or its account signed out everywhere, on
// every route, without a read per request: each process keeps what was revoked within an access token's
// lifetime, read with one Query at most every REVOCATION_REFRESH_SECONDS, on the first request after.
import type { Revocations } from '../data/revocation-repository';
import type { AccessToken } from './access-token';
import { type Clock, RefreshingValue } from './refreshing-value';

/**
 * The longest a process's list may lag the table (docs/sso.md promises a revoked sign-in is refused
 * within it): when the list cannot be read again, one older than this is not used, and the request fails.
 */
export const REVOCATION_BOUND_MS = 60_000;
/** How far past a token's expiry a revocation is still read: the verifier's leeway on `exp`, and clock skew between functions. */
const READ_MARGIN_MS = 60_000;

export interface RevocationSource {
  since(at: Date): Promise<Revocations>;
}

export interface RevocationSettings {
  accessTokenTtlSeconds: number;
  revocationRefreshSeconds: number;
}

export class RevokedSignIns {
  private readonly list: RefreshingValue<Revocations>;

  constructor(source: RevocationSource, settings: RevocationSettings, now: Clock = Date.now) {
    // A revocation older than the longest-lived token is of no use: every token it refuses has expired.
    const windowMs = settings.accessTokenTtlSeconds * 1000 + READ_MARGIN_MS;
    this.list = new RefreshingValue(
      () => source.since(new Date(now() - windowMs)),
      settings.revocationRefreshSeconds * 1000,
      now,
      REVOCATION_BOUND_MS,
    );
  }

  /**
   * Whether the token's sign-in is revoked, or its account was signed out after it was issued (compared at
   * whole seconds, as userinfo does, so a token of the sign-out's own second is honoured). A client's own
   * token names no person, and is never looked up.
   */
  async refusal(token: AccessToken): Promise<string | undefined> {
    return (await this.isRevoked(token)) ? 'its sign-in has been revoked' : undefined;
  }

  async isRevoked({ person, issuedAt }: AccessToken): Promise<boolean> {
    if (!person) return false;
    const { signIns, signedOut } = await this.list.get();
    if (person.signIn !== undefined && signIns.has(person.signIn)) return true;
    const signedOutAt = signedOut.get(person.userId);
    return signedOutAt !== undefined && issuedAt < signedOutAt;
  }
}
