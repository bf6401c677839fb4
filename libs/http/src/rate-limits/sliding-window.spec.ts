import fc from 'fast-check';
import type { RateLimitGroup } from '../auth/api-key-directory';
import { DEFAULT_RATE_LIMITS, perSecondLimit, windowsFor } from './rate-limit-policy';
import { chargeFor, decide, horizonOf, SLOT_MS, slotOf, type LimitWindow, type RateLimitDecision } from './sliding-window';

const T0 = Date.parse('2026-05-01T10:00:00.000Z');

/** A bucket as a map of slot → units, driven through the pure functions. */
class Bucket {
  readonly taken = new Map<number, number>();

  constructor(readonly windows: readonly LimitWindow[]) {}

  recentAt(now: number): number[] {
    return Array.from({ length: horizonOf(this.windows) }, (_, k) => this.taken.get(slotOf(now) - k) ?? 0);
  }

  peek(cost: number, now: number): RateLimitDecision {
    return decide(this.recentAt(now), cost, this.windows, now);
  }

  take(cost: number, now: number): RateLimitDecision {
    const decision = this.peek(cost, now);
    if (decision.allowed) this.taken.set(slotOf(now), (this.taken.get(slotOf(now)) ?? 0) + chargeFor(cost, this.windows));
    return decision;
  }

  /** The most units any window held at any slot. */
  worstOverrun(): { window: LimitWindow; held: number }[] {
    const slots = [...this.taken.keys()];
    return this.windows.map((window) => ({
      window,
      held: Math.max(0, ...slots.map((end) => slots.filter((s) => s > end - window.slots && s <= end).reduce((sum, s) => sum + this.taken.get(s)!, 0))),
    }));
  }
}

const perSecond = fc.integer({ min: 1, max: 30 });
/** Requests as (gap since the previous one in ms, cost); a few cost more than a whole bucket. */
const traffic = fc.array(fc.tuple(fc.integer({ min: 0, max: 400 }), fc.oneof(fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 100 }))), { maxLength: 300 });
const start = fc.integer({ min: 0, max: 10_000 }).map((offset) => T0 + offset);

function replay(bucket: Bucket, from: number, requests: readonly [number, number][]): number {
  let now = from;
  for (const [gap, cost] of requests) bucket.take(cost, (now += gap));
  return now;
}

describe('sliding-window limiter', () => {
  it('never lets either window hold more than its budget', () => {
    fc.assert(
      fc.property(perSecond, start, traffic, (limit, from, requests) => {
        const bucket = new Bucket(windowsFor(limit));
        replay(bucket, from, requests);
        for (const { window, held } of bucket.worstOverrun()) expect(held).toBeLessThanOrEqual(window.budget);
      }),
    );
  });

  it('admits a steady rate at the limit for twenty seconds', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 100 }), start, (limit, from) => {
        const bucket = new Bucket(windowsFor(limit));
        for (let k = 0; k < 20 * limit; k++) expect(bucket.take(1, from + Math.floor((k * 1000) / limit)).allowed).toBe(true);
      }),
      { numRuns: 25 },
    );
  });

  it('admits a burst of twice the rate within a second, but not twice the rate for ten seconds', () => {
    const bucket = new Bucket(windowsFor(10));
    for (let k = 0; k < 20; k++) expect(bucket.take(1, T0).allowed).toBe(true);
    expect(bucket.take(1, T0).allowed).toBe(false);
    // 20 per second asked for the next 9 seconds; 100 units per 10 s, 20 of them gone in the burst.
    const admitted = Array.from({ length: 180 }, (_, k) => bucket.take(1, T0 + 1000 + k * 50).allowed).filter(Boolean).length;
    expect(admitted).toBe(80);
  });

  it('reports remaining units that are exactly what the next requests get', () => {
    fc.assert(
      fc.property(perSecond, start, traffic, fc.integer({ min: 0, max: 2000 }), (limit, from, requests, gap) => {
        const bucket = new Bucket(windowsFor(limit));
        const now = replay(bucket, from, requests) + gap;
        const { remaining, limit: full } = bucket.take(1, now);
        expect(remaining).toBeLessThanOrEqual(full);
        for (let k = 0; k < remaining; k++) expect(bucket.take(1, now).allowed).toBe(true);
        expect(bucket.take(1, now)).toMatchObject({ allowed: false, remaining: 0 });
      }),
    );
  });

  it('tells a refused request the exact moment it would pass', () => {
    fc.assert(
      fc.property(perSecond, start, traffic, fc.integer({ min: 1, max: 10 }), (limit, from, requests, cost) => {
        const bucket = new Bucket(windowsFor(limit));
        const now = replay(bucket, from, requests);
        const decision = bucket.peek(cost, now);
        fc.pre(!decision.allowed);
        expect(decision.retryAfter).toBeGreaterThan(0);
        expect(bucket.peek(cost, now + decision.retryAfter - 1).allowed).toBe(false);
        expect(bucket.peek(cost, now + decision.retryAfter).allowed).toBe(true);
      }),
    );
  });

  it('resets when the bucket is full again, and not before', () => {
    fc.assert(
      fc.property(perSecond, start, traffic, (limit, from, requests) => {
        const bucket = new Bucket(windowsFor(limit));
        const now = replay(bucket, from, requests);
        const { resetAt, limit: full, allowed } = bucket.take(1, now);
        expect(resetAt).toBeGreaterThanOrEqual(now);
        expect(resetAt - now).toBeLessThanOrEqual(horizonOf(bucket.windows) * SLOT_MS);
        expect(bucket.peek(full, resetAt)).toMatchObject({ allowed: true, remaining: 0 });
        if (allowed) expect(bucket.peek(full, resetAt - 1).allowed).toBe(false);
      }),
    );
  });

  it('charges a request dearer than a full bucket the whole bucket, so it passes once the bucket is full', () => {
    const bucket = new Bucket(windowsFor(2));
    expect(bucket.take(9, T0)).toMatchObject({ allowed: true, limit: 4, remaining: 0 });
    expect(bucket.take(9, T0 + 900)).toMatchObject({ allowed: false, retryAfter: 100 });
    expect(bucket.take(9, T0 + 1000).allowed).toBe(true);
  });
});

describe('rate-limit policy', () => {
  const groups = Object.keys(DEFAULT_RATE_LIMITS) as RateLimitGroup[];

  it('gives sandbox one tenth of every default live limit', () => {
    for (const group of groups) expect(perSecondLimit(group, 'sandbox') * 10).toBe(perSecondLimit(group, 'live'));
  });

  it('gives sandbox one tenth of a raised limit (rounded down, at least 1), and live the raised limit', () => {
    fc.assert(
      fc.property(fc.constantFrom(...groups), fc.integer({ min: 1, max: 1_000_000 }), (group, raised) => {
        expect(perSecondLimit(group, 'live', { [group]: raised })).toBe(raised);
        expect(perSecondLimit(group, 'sandbox', { [group]: raised })).toBe(Math.max(1, Math.floor(raised / 10)));
      }),
    );
  });

  it('admits a sandbox burst one tenth the size of the live one', () => {
    fc.assert(
      fc.property(fc.constantFrom(...groups), fc.integer({ min: 1, max: 100 }).map((tenths) => tenths * 10), (group, raised) => {
        const burst = (environment: 'live' | 'sandbox') => {
          const bucket = new Bucket(windowsFor(perSecondLimit(group, environment, { [group]: raised })));
          let admitted = 0;
          while (bucket.take(1, T0).allowed) admitted++;
          return admitted;
        };
        expect(burst('sandbox') * 10).toBe(burst('live'));
      }),
      { numRuns: 30 },
    );
  });
});
