// What every route that takes a bearer token keeps of the tenant's clients: whether each is disabled, and
// since when, and its rate limit. Read for every client with one Query at most every
// REVOCATION_REFRESH_SECONDS, on the first request after, so that a disabled client's tokens are refused
// and a changed limit applies within a minute, without a read per request.
import type { ClientPolicy } from '../data/client-repository';
import type { AccessToken } from './access-token';
import { type Clock, RefreshingValue } from './refreshing-value';
import { REVOCATION_BOUND_MS } from './revoked-sign-ins';

export interface ClientPolicySource {
  policies(): Promise<ClientPolicy[]>;
}

export class ClientPolicies {
  private readonly byId: RefreshingValue<ReadonlyMap<string, ClientPolicy>>;

  constructor(
    source: ClientPolicySource,
    settings: { revocationRefreshSeconds: number },
    private readonly now: Clock = Date.now,
  ) {
    this.byId = new RefreshingValue(
      async () => new Map((await source.policies()).map((policy) => [policy.client_id, policy])),
      settings.revocationRefreshSeconds * 1000,
      now,
      REVOCATION_BOUND_MS,
    );
  }

  /**
   * The policy of the token's client; undefined for a client the table does not hold. A client missing
   * from what was read before the token was issued (registered since) has the clients read again, once:
   * its limit must hold from its first request.
   */
  async of({
    clientId,
    issuedAt,
  }: Pick<AccessToken, 'clientId' | 'issuedAt'>): Promise<ClientPolicy | undefined> {
    const known = (await this.byId.get()).get(clientId);
    // `iat` is in whole seconds: a read within the token's second may still predate it.
    const readBeforeIssued = this.now() - this.byId.age() < (issuedAt + 1) * 1000;
    if (known || !readBeforeIssued) return known;
    return (await this.byId.refresh()).get(clientId);
  }

  /**
   * Why a token is refused, if its client was disabled after issuing it (compared at whole seconds, the
   * token's `iat`): a client enabled again gets new tokens, but not the ones it held before.
   */
  async refusal({ clientId, issuedAt }: AccessToken): Promise<string | undefined> {
    const policy = await this.of({ clientId, issuedAt });
    if (!policy) return undefined;
    const disabledAt =
      policy.disabled_at === undefined ? undefined : Math.floor(Date.parse(policy.disabled_at) / 1000);
    const refused = disabledAt === undefined ? policy.status !== 'active' : issuedAt <= disabledAt;
    return refused ? 'its client has been disabled' : undefined;
  }
}
