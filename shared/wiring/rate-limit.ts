// Each route's admission of a token's caller under its client's rate limit (shared/clients/rate-limiter.ts):
// a client's own token spends the client's budget, a person's token a budget of its own per person, at the
// client's rate; every answer carries the RateLimit header fields and a refusal is a 429.
import type { AccessToken } from '../auth/access-token';
import { rateLimitHeaders } from '../clients/rate-limit-headers';
import { RateLimiter } from '../clients/rate-limiter';
import { rateLimitOf } from '../data/client-repository';
import { TooManyRequestsError } from '../http/errors';
import type { Route } from '../route';
import { clientPolicies } from './client-policies';
import { config, once } from './context';
import { rateRepository } from './rate-repository';

const rateLimiter = once(
  () => new RateLimiter(rateRepository(), { usageFlushMs: config().usageFlushSeconds * 1000 }),
);

/** The caller whose budget a request spends. */
const callerOf = ({ clientId, person }: AccessToken) => (person ? `${clientId}#${person.userId}` : clientId);

/** The admission of `route`'s requests; its usage counts under the route's group (its handler's folder). */
export function admission(route: Route) {
  const group = route.handler.split('/')[0] ?? route.handler;
  return async (auth: AccessToken): Promise<Record<string, string>> => {
    const policy = await clientPolicies().of(auth);
    const decision = await rateLimiter().admit(callerOf(auth), rateLimitOf(policy ?? {}), {
      clientId: auth.clientId,
      group,
    });
    const headers = rateLimitHeaders(decision);
    if (!decision.allowed) {
      throw new TooManyRequestsError(
        `This client has used its ${decision.limit} requests of this minute: try again in ${decision.resetSeconds} s.`,
        headers,
      );
    }
    return headers;
  };
}
