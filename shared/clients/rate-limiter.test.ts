// The rate limiter against DynamoDB Local: one process admits exactly its limit a minute, several
// processes sharing the table together never admit more and, bursting twice the limit, not much less;
// most requests make no round trip; and what it decided reaches the daily usage items.
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ensureTable } from '../../infra/local/bootstrap';
import { createDocumentClient } from '../data/document-client';
import { keys } from '../data/keys';
import { RateRepository } from '../data/rate-repository';
import { type RateCounter, type RateDecision, RateLimiter } from './rate-limiter';

const tableName = `rate-limits-${Date.now()}`;
const db = createDocumentClient({ region: 'eu-west-1', endpoint: inject('dynamodbEndpoint') });
const repository = new RateRepository(db, tableName);

beforeAll(() => ensureTable(db, tableName, { stream: false }));
afterAll(() => db.destroy());

/** The real repository, counting the calls made to it. */
class CountedCounter implements RateCounter {
  claims = 0;
  usageWrites = 0;

  claim(caller: string, minute: string, n: number, expiresAtEpochSeconds: number) {
    this.claims++;
    return repository.claim(caller, minute, n, expiresAtEpochSeconds);
  }

  addUsage(clientId: string, day: string, requests: ReadonlyMap<string, number>, refused: number) {
    this.usageWrites++;
    return repository.addUsage(clientId, day, requests, refused);
  }
}

/** A clock the test moves by hand. */
function clockAt(iso: string) {
  let at = Date.parse(iso);
  return {
    now: () => at,
    set: (to: string) => {
      at = Date.parse(to);
    },
  };
}

let callers = 0;
/** A caller no other test uses, so each test starts with a fresh window. */
const newCaller = () => `client#rate-${Date.now()}-${++callers}`;

const usageOf = (clientId: string) => ({ clientId, group: 'students' });

async function inSequence(limiter: RateLimiter, caller: string, limit: number, requests: number) {
  const decisions: RateDecision[] = [];
  for (let i = 0; i < requests; i++) decisions.push(await limiter.admit(caller, limit, usageOf(caller)));
  return decisions;
}

describe('one process', () => {
  it('admits exactly the limit a minute, then refuses with nothing left until the minute ends', async () => {
    const clock = clockAt('2026-03-02T10:15:30.250Z');
    const counter = new CountedCounter();
    const limiter = new RateLimiter(counter, { now: clock.now });
    const caller = newCaller();

    const decisions = await inSequence(limiter, caller, 60, 70);
    const admitted = decisions.filter((d) => d.allowed);
    expect(admitted).toHaveLength(60);
    expect(decisions.slice(0, 60).every((d) => d.allowed)).toBe(true);
    expect(admitted.map((d) => d.remaining)).toEqual(Array.from({ length: 60 }, (_, i) => 59 - i));
    for (const refused of decisions.slice(60)) {
      expect(refused).toEqual({ allowed: false, limit: 60, remaining: 0, resetSeconds: 30 });
    }

    // Refused for the rest of the minute without asking the table again.
    const claims = counter.claims;
    clock.set('2026-03-02T10:15:59.100Z');
    expect(await limiter.admit(caller, 60, usageOf(caller))).toEqual({
      allowed: false,
      limit: 60,
      remaining: 0,
      resetSeconds: 1,
    });
    expect(counter.claims).toBe(claims);

    clock.set('2026-03-02T10:16:00.000Z');
    expect(await limiter.admit(caller, 60, usageOf(caller))).toEqual({
      allowed: true,
      limit: 60,
      remaining: 59,
      resetSeconds: 60,
    });
    expect((await inSequence(limiter, caller, 60, 70)).filter((d) => d.allowed)).toHaveLength(59);
  });

  it('never grants more than the limit to concurrent requests of one caller, sharing claims', async () => {
    const counter = new CountedCounter();
    const limiter = new RateLimiter(counter, { now: clockAt('2026-03-02T10:20:10Z').now });
    const caller = newCaller();
    const decisions = await Promise.all(
      Array.from({ length: 200 }, () => limiter.admit(caller, 60, usageOf(caller))),
    );
    expect(decisions.filter((d) => d.allowed)).toHaveLength(60);
    // One claim at a time: as many as sequential requests need (batches of one or two at this limit),
    // not one per waiting request.
    expect(counter.claims).toBeLessThanOrEqual(45);
  });

  it('asks the table on few requests: 1,200 in a row at 1,200 a minute make under 90 claims', async () => {
    const counter = new CountedCounter();
    const limiter = new RateLimiter(counter, { now: clockAt('2026-03-02T10:25:05Z').now });
    const caller = newCaller();
    const decisions = await inSequence(limiter, caller, 1200, 1200);
    expect(decisions.every((d) => d.allowed)).toBe(true);
    // Batches doubling from one to 24, 24 up to the last 192 units, then an eighth of what is left.
    expect(counter.claims).toBeLessThanOrEqual(90);
    const claims = counter.claims;
    expect(await limiter.admit(caller, 1200, usageOf(caller))).toMatchObject({
      allowed: false,
      remaining: 0,
    });
    expect(counter.claims).toBe(claims);
  });
});

describe('the many functions of a tenant', () => {
  it('strand next to nothing: 130 that each serve a caller twice leave the rest of its limit to a busy one', async () => {
    const now = clockAt('2026-03-02T12:00:05Z').now;
    const caller = newCaller();
    const limit = 300;
    let admitted = 0;
    const admit = async (limiter: RateLimiter) => {
      if ((await limiter.admit(caller, limit, usageOf(caller))).allowed) admitted++;
    };
    const quiet = Array.from({ length: 130 }, () => new RateLimiter(new CountedCounter(), { now }));
    await Promise.all(
      quiet.map(async (limiter) => {
        await admit(limiter);
        await admit(limiter);
      }),
    );
    const busy = new RateLimiter(new CountedCounter(), { now });
    for (let i = 0; i < 100; i++) await admit(busy);
    expect(admitted).toBe(limit);
  });
});

describe('four processes sharing the table', () => {
  /** Each of 4 limiters serves its share of `2 × limit` requests, 8 at a time, all 4 at once. */
  async function burst(limit: number) {
    const now = clockAt('2026-03-02T11:00:20Z').now;
    const limiters = Array.from({ length: 4 }, () => new RateLimiter(new CountedCounter(), { now }));
    const caller = newCaller();
    const share = (2 * limit) / limiters.length;
    let admitted = 0;
    await Promise.all(
      limiters.map(async (limiter) => {
        let left = share;
        await Promise.all(
          Array.from({ length: 8 }, async () => {
            while (left > 0) {
              left--;
              if ((await limiter.admit(caller, limit, usageOf(caller))).allowed) admitted++;
            }
          }),
        );
      }),
    );
    return admitted;
  }

  it.each([60, 300, 1200])(
    'admit at most the limit of %i, and at least 90 % of it, under a 2× burst',
    async (limit) => {
      const admitted = await burst(limit);
      expect(admitted).toBeLessThanOrEqual(limit);
      expect(admitted).toBeGreaterThanOrEqual(0.9 * limit);
    },
  );
});

describe('usage', () => {
  it('is written per client and day, by route group, with the refusals', async () => {
    const clock = clockAt('2026-03-02T23:59:30Z');
    const limiter = new RateLimiter(new CountedCounter(), { now: clock.now, usageFlushMs: 0 });
    const clientId = `usage-${Date.now()}`;
    const caller = `client#${clientId}`;
    for (let i = 0; i < 3; i++) await limiter.admit(caller, 4, { clientId, group: 'students' });
    await limiter.admit(caller, 4, { clientId, group: 'oneroster-rostering' });
    for (let i = 0; i < 2; i++) await limiter.admit(caller, 4, { clientId, group: 'students' });
    clock.set('2026-03-03T00:00:10Z');
    await limiter.admit(caller, 4, { clientId, group: 'academic_sessions' });

    expect(await repository.usage(clientId, '2026-02-01', '2026-03-31')).toEqual([
      {
        day: '2026-03-02',
        requests: { students: 3, 'oneroster-rostering': 1 },
        total: 4,
        refused: 2,
      },
      { day: '2026-03-03', requests: { academic_sessions: 1 }, total: 1, refused: 0 },
    ]);
    expect(await repository.usage(clientId, '2026-03-03', '2026-03-03')).toHaveLength(1);
  });

  it('waits for the next claim by default, or for the oldest count to be 10 s old', async () => {
    const clock = clockAt('2026-03-04T08:00:00Z');
    const counter = new CountedCounter();
    const limiter = new RateLimiter(counter, { now: clock.now });
    const clientId = `usage-${Date.now()}`;
    const admit = () => limiter.admit(`client#${clientId}`, 100, { clientId, group: 'students' });
    const written = async () => (await repository.usage(clientId, '2026-03-04', '2026-03-04'))[0]?.total ?? 0;

    // At 100 a minute batches go 1, 1, 2: each of the first three requests claims, and writes the counts
    // made before it.
    await admit();
    expect(await written()).toBe(0);
    await admit();
    expect(await written()).toBe(1);
    await admit();
    expect(await written()).toBe(2);
    expect(counter.usageWrites).toBe(2);

    // The fourth spends the third's lease, 10 s after the third was counted: both are written.
    clock.set('2026-03-04T08:00:10Z');
    await admit();
    expect(await written()).toBe(4);
    expect(counter.claims).toBe(3);
  });

  it('expires a window a minute after its minute, and a day of usage 31 days after the day', async () => {
    const limiter = new RateLimiter(repository, {
      now: clockAt('2026-03-06T09:30:40Z').now,
      usageFlushMs: 0,
    });
    const clientId = `usage-${Date.now()}`;
    await limiter.admit(`client#${clientId}`, 10, { clientId, group: 'students' });
    const itemAt = async (key: { pk: string; sk: string }) =>
      (await db.send(new GetCommand({ TableName: tableName, Key: key, ConsistentRead: true }))).Item;
    expect(await itemAt(keys.rateWindow(`client#${clientId}`, '2026-03-06T09:30'))).toMatchObject({
      count: 1,
      ttl: Date.parse('2026-03-06T09:32:00Z') / 1000,
    });
    expect(await itemAt(keys.clientUsage(clientId, '2026-03-06'))).toMatchObject({
      requests_students: 1,
      ttl: Date.parse('2026-04-07T00:00:00Z') / 1000,
    });
  });

  it('writes nothing for counts that are all zero', async () => {
    const clientId = `usage-${Date.now()}`;
    await repository.addUsage(clientId, '2026-03-05', new Map([['students', 0]]), 0);
    expect(await repository.usage(clientId, '2026-03-05', '2026-03-05')).toEqual([]);
  });
});
