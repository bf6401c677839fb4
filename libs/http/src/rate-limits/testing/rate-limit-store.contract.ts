import type { RateLimitStore } from '../rate-limit-store';
import type { LimitWindow } from '../sliding-window';

export interface RateLimitStoreUnderTest {
  store: RateLimitStore;
  /** Closes the store and removes whatever it created. */
  cleanup(): Promise<void>;
}

/** A burst of 4 units per second, 10 per ten seconds. */
const WINDOWS: readonly LimitWindow[] = [
  { slots: 10, budget: 4 },
  { slots: 100, budget: 10 },
];
/** On a slot boundary. */
const T0 = Date.parse('2026-05-01T10:00:00.000Z');

/**
 * The behaviour every RateLimitStore adapter shares. `makeStore` gives an empty store for each
 * test. `atomic` says whether concurrent takes of one bucket are applied atomically, which a
 * server that applies `$inc` as read-modify-write (FerretDB 1.x) does not do.
 */
export function describeRateLimitStoreContract(name: string, makeStore: () => Promise<RateLimitStoreUnderTest>, { atomic }: { atomic: boolean }): void {
  describe(`RateLimitStore contract: ${name}`, () => {
    let subject: RateLimitStoreUnderTest | undefined;
    let store: RateLimitStore;

    beforeEach(async () => {
      subject = await makeStore();
      store = subject.store;
    });

    afterEach(async () => {
      await subject?.cleanup();
      subject = undefined;
    });

    const take = (cost: number, at: number, bucket = 'ten_1:sandbox:read') => store.take(bucket, cost, WINDOWS, at);

    it('admits takes while every window has room, then refuses with the time until there is room', async () => {
      for (const remaining of [3, 2, 1, 0]) expect(await take(1, T0)).toMatchObject({ allowed: true, limit: 4, remaining, retryAfter: 0 });
      expect(await take(1, T0 + 250)).toMatchObject({ allowed: false, limit: 4, remaining: 0, retryAfter: 750 });
    });

    it('takes nothing when it refuses', async () => {
      await take(3, T0);
      expect((await take(2, T0)).allowed).toBe(false);
      expect(await take(1, T0)).toMatchObject({ allowed: true, remaining: 0 });
    });

    it('slides both windows one 100 ms slot at a time', async () => {
      await take(4, T0);
      expect((await take(1, T0 + 999)).allowed).toBe(false);
      expect(await take(4, T0 + 1000)).toMatchObject({ allowed: true, remaining: 0 });
      expect(await take(2, T0 + 2000)).toMatchObject({ allowed: true, remaining: 0 });
      // Ten units in ten seconds: room again when the first slot leaves the long window.
      expect(await take(1, T0 + 2000)).toMatchObject({ allowed: false, retryAfter: 8000 });
      expect((await take(1, T0 + 9999)).allowed).toBe(false);
      expect((await take(1, T0 + 10_000)).allowed).toBe(true);
    });

    it('reports when the bucket is full again', async () => {
      expect(await take(1, T0 + 50)).toMatchObject({ remaining: 3, resetAt: T0 + 1000 });
      expect(await take(3, T0 + 1000)).toMatchObject({ remaining: 1, resetAt: T0 + 2000 });
    });

    it('keeps buckets apart', async () => {
      await take(4, T0);
      expect((await take(1, T0)).allowed).toBe(false);
      expect(await take(1, T0, 'ten_1:live:read')).toMatchObject({ allowed: true, remaining: 3 });
      expect(await take(1, T0, 'ten_2:sandbox:read')).toMatchObject({ allowed: true, remaining: 3 });
    });

    (atomic ? it : it.skip)('never admits more than a budget under concurrent takes, and keeps no trace of refused ones', async () => {
      const decisions = await Promise.all(Array.from({ length: 20 }, () => take(1, T0)));
      const admitted = decisions.filter((d) => d.allowed).length;
      expect(admitted).toBeGreaterThan(0);
      expect(admitted).toBeLessThanOrEqual(4);
      for (let k = admitted; k < 4; k++) expect((await take(1, T0)).allowed).toBe(true);
      expect((await take(1, T0)).allowed).toBe(false);
    });
  });
}
