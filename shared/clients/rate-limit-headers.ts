// The rate-limit header fields of every answer to a client, as draft-ietf-httpapi-ratelimit-headers-11
// defines them (structured-field Lists of one Item each): `RateLimit-Policy` names the quota policy
// (section 3: `q` the quota, `w` the window in seconds) and `RateLimit` the service limit left under it
// (section 4: `r` the available quota, `t` the seconds until the window ends). A refused request also
// gets `Retry-After` (RFC 9110 section 10.2.3) with the same seconds: section 6 asks that it point no
// earlier than the end of the effective window.
import { type RateDecision, WINDOW_SECONDS } from './rate-limiter';

/** The policy's name, a structured-field String in both fields (section 3: the Item's value). */
const POLICY = '"per-minute"';

export function rateLimitHeaders(decision: RateDecision): Record<string, string> {
  return {
    'ratelimit-policy': `${POLICY};q=${decision.limit};w=${WINDOW_SECONDS}`,
    ratelimit: `${POLICY};r=${decision.remaining};t=${decision.resetSeconds}`,
    ...(decision.allowed ? {} : { 'retry-after': String(decision.resetSeconds) }),
  };
}
