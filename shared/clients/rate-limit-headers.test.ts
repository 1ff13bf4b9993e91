// The rate-limit header fields as draft-ietf-httpapi-ratelimit-headers-11 writes them: each a
// structured-field List of one Item, a String naming the policy with Integer parameters (`q` and `w` in
// RateLimit-Policy, section 3; `r` and `t` in RateLimit, section 4), and Retry-After on a refusal.
import { describe, expect, it } from 'vitest';
import { rateLimitHeaders } from './rate-limit-headers';

/** A List of one Item (RFC 9651 section 3.1): a String and Integer parameters, nothing else. */
const oneItemWithIntegers = /^"[a-z-]+"(;[a-z]+=\d+)+$/;

describe('rate-limit headers', () => {
  it('give the policy and what is left of it on an admitted request, and no Retry-After', () => {
    const headers = rateLimitHeaders({ allowed: true, limit: 1200, remaining: 17, resetSeconds: 42 });
    expect(headers).toEqual({
      'ratelimit-policy': '"per-minute";q=1200;w=60',
      ratelimit: '"per-minute";r=17;t=42',
    });
    expect(headers['ratelimit-policy']).toMatch(oneItemWithIntegers);
    expect(headers.ratelimit).toMatch(oneItemWithIntegers);
  });

  it('add Retry-After, the seconds until the window ends, to a refused request', () => {
    expect(rateLimitHeaders({ allowed: false, limit: 60, remaining: 0, resetSeconds: 9 })).toEqual({
      'ratelimit-policy': '"per-minute";q=60;w=60',
      ratelimit: '"per-minute";r=0;t=9',
      'retry-after': '9',
    });
  });
});
