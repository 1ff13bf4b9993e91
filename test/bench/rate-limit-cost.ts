// Section 2, the rate limit: what admitting a caller under its client's rate limit costs a request, as
// every route that takes a token does it (shared/wiring/rate-limit.ts): the client's policy looked up in
// the list in hand, one unit of the caller's lease spent (or a batch claimed from the shared window, one
// UpdateItem), and the header fields written. In process, on DynamoDB Local, a client at the default
// 1,200 a minute sending 1,000 requests one after another, as a nightly sync does; the claims it made are
// counted. The stack's own get by id, which includes it, is section 2's overhead.
import { randomUUID } from 'node:crypto';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ClientPolicies } from '../../shared/auth/client-policies';
import { rateLimitHeaders } from '../../shared/clients/rate-limit-headers';
import { RateLimiter } from '../../shared/clients/rate-limiter';
import { ClientRepository, rateLimitOf } from '../../shared/data/client-repository';
import { RateRepository } from '../../shared/data/rate-repository';
import { LIMITS } from '../../shared/domain/limits';
import { type Latency, latency, round } from './stats';

/** Held to: admission adds at most this many ms to a request, at p50. */
export const RATE_LIMIT_TARGET_MS = 0.3;

export interface RateLimitCost {
  limit: number;
  requests: number;
  /** Every request's admission, microseconds. */
  admitUs: Latency;
  /** Mean admission, microseconds: the claims' share spread over every request. */
  meanUs: number;
  /** The requests that claimed a batch from the shared window (an UpdateItem), and theirs alone, ms. */
  claims: number;
  claimMs: Latency;
  met: boolean;
}

/** One minute's budget spent one request after another, from the start of a minute so none is refused. */
export async function measureRateLimitCost(
  db: DynamoDBDocumentClient,
  tableName: string,
  requests = 1_000,
): Promise<RateLimitCost> {
  const clients = new ClientRepository(db, tableName);
  const clientId = `bench-${randomUUID()}`;
  await clients.put({
    client_id: clientId,
    name: 'Rate-limit bench',
    scopes: ['students:read'],
    status: 'active',
    created_at: new Date().toISOString(),
  });
  const policies = new ClientPolicies(clients, { revocationRefreshSeconds: 20 });
  const counter = new RateRepository(db, tableName);
  let claimed = false;
  const counting = {
    claim: (...args: Parameters<RateRepository['claim']>) => {
      claimed = true;
      return counter.claim(...args);
    },
    addUsage: (...args: Parameters<RateRepository['addUsage']>) => counter.addUsage(...args),
  };
  const limiter = new RateLimiter(counting);
  const token = { clientId, issuedAt: Math.floor(Date.now() / 1000) };
  // A whole burst in one minute: wait for the next one to start if this one is half gone.
  const secondsLeft = 60 - new Date().getUTCSeconds();
  if (secondsLeft < 30) await new Promise((resolve) => setTimeout(resolve, secondsLeft * 1000 + 100));
  await policies.of(token);

  const all: number[] = [];
  const claims: number[] = [];
  let limit: number = LIMITS.clientRequestsPerMinute;
  for (let i = 0; i < requests; i++) {
    claimed = false;
    const start = performance.now();
    limit = rateLimitOf((await policies.of(token)) ?? {});
    const decision = await limiter.admit(clientId, limit, { clientId, group: 'students' });
    rateLimitHeaders(decision);
    const ms = performance.now() - start;
    if (!decision.allowed) throw new Error(`request ${i} was refused: the burst left its minute`);
    all.push(ms * 1000);
    if (claimed) claims.push(ms);
  }
  const admitUs = latency(all);
  return {
    limit,
    requests,
    admitUs: { ...admitUs, p50: round(admitUs.p50, 1), p95: round(admitUs.p95, 1) },
    meanUs: round(all.reduce((sum, us) => sum + us, 0) / all.length, 1),
    claims: claims.length,
    claimMs: { ...latency(claims), p50: round(latency(claims).p50, 2), p95: round(latency(claims).p95, 2) },
    met: admitUs.p50 / 1000 <= RATE_LIMIT_TARGET_MS,
  };
}
