import type { LeaseStore } from '../lease-store.port';
import { Leases, type Lease, type LeaseAttempt } from '../leases';

export interface LeaseStoreUnderTest {
  store: LeaseStore;
  /** Closes the store and removes whatever it created. */
  cleanup(): Promise<void>;
}

const TTL = 10_000;
const T0 = new Date('2026-05-01T10:00:00.000Z');
const at = (ms: number): Date => new Date(T0.getTime() + ms);
const NAME = 'eu/process/tax_id_validation';

function leaseOf(attempt: LeaseAttempt): Lease {
  if (!('lease' in attempt)) throw new Error(`expected the lease, but it is busy until ${attempt.busyUntil.toISOString()}`);
  return attempt.lease;
}

/**
 * The behaviour every LeaseStore adapter gives the lease rules (Leases). `makeStore` gives an empty
 * store for each test. Every race here is decided by the unique insert alone, so it holds on
 * FerretDB 1.x as on MongoDB.
 */
export function describeLeaseStoreContract(name: string, makeStore: () => Promise<LeaseStoreUnderTest>): void {
  describe(`LeaseStore contract: ${name}`, () => {
    let subject: LeaseStoreUnderTest | undefined;
    let store: LeaseStore;
    let leases: Leases;

    beforeEach(async () => {
      subject = await makeStore();
      store = subject.store;
      leases = new Leases(store);
    });

    afterEach(async () => {
      await subject?.cleanup();
      subject = undefined;
    });

    it('gives a free lease to the first holder and refuses another until it expires', async () => {
      const a = leaseOf(await leases.acquire(NAME, 'a', at(0), TTL));
      expect(a).toEqual({ name: NAME, holder: 'a', token: 1, expiresAt: at(TTL) });
      await expect(leases.acquire(NAME, 'b', at(TTL - 1), TTL)).resolves.toEqual({ busyUntil: at(TTL) });
      const b = leaseOf(await leases.acquire(NAME, 'b', at(TTL), TTL));
      expect(b).toEqual({ name: NAME, holder: 'b', token: 2, expiresAt: at(2 * TTL) });
    });

    it('renews the holder’s lease from now, under a larger token', async () => {
      const first = leaseOf(await leases.acquire(NAME, 'a', at(0), TTL));
      const renewed = await leases.renew(first, at(3_000), TTL);
      expect(renewed).toEqual({ name: NAME, holder: 'a', token: 2, expiresAt: at(3_000 + TTL) });
      await expect(leases.acquire(NAME, 'b', at(TTL), TTL)).resolves.toEqual({ busyUntil: at(3_000 + TTL) });
      expect(await leases.renew(renewed!, at(6_000), TTL)).toMatchObject({ token: 3, expiresAt: at(6_000 + TTL) });
    });

    it('lets the holder take its own lease again, as a renewal', async () => {
      leaseOf(await leases.acquire(NAME, 'a', at(0), TTL));
      expect(leaseOf(await leases.acquire(NAME, 'a', at(1_000), TTL))).toMatchObject({ token: 2, expiresAt: at(1_000 + TTL) });
    });

    it('refuses to renew a lease another holder took over, also once that one expired', async () => {
      const a = leaseOf(await leases.acquire(NAME, 'a', at(0), TTL));
      leaseOf(await leases.acquire(NAME, 'b', at(TTL), TTL));
      await expect(leases.renew(a, at(TTL + 1), TTL)).resolves.toBeUndefined();
      await expect(leases.renew(a, at(5 * TTL), TTL)).resolves.toBeUndefined();
    });

    it('counts a later epoch of the holder’s own as its own (a renewal whose answer was lost)', async () => {
      const a = leaseOf(await leases.acquire(NAME, 'a', at(0), TTL));
      await leases.renew(a, at(1_000), TTL);
      expect(await leases.renew(a, at(2_000), TTL)).toMatchObject({ holder: 'a', token: 3, expiresAt: at(2_000 + TTL) });
    });

    it('frees a released lease at once; the released holder cannot renew it', async () => {
      const a = leaseOf(await leases.acquire(NAME, 'a', at(0), TTL));
      await leases.release(a, at(1_000));
      const b = leaseOf(await leases.acquire(NAME, 'b', at(1_000), TTL));
      expect(b.token).toBe(3);
      await expect(leases.renew(a, at(1_001), TTL)).resolves.toBeUndefined();
    });

    it('ignores a release by a holder that lost the lease', async () => {
      const a = leaseOf(await leases.acquire(NAME, 'a', at(0), TTL));
      leaseOf(await leases.acquire(NAME, 'b', at(TTL), TTL));
      await leases.release(a, at(TTL + 1));
      await expect(leases.acquire(NAME, 'c', at(TTL + 2), TTL)).resolves.toEqual({ busyUntil: at(2 * TTL) });
    });

    it('gives one of several racing holders a free lease', async () => {
      const attempts = await Promise.all(['a', 'b', 'c', 'd', 'e'].map((holder) => leases.acquire(NAME, holder, at(0), TTL)));
      expect(attempts.filter((attempt) => 'lease' in attempt)).toHaveLength(1);
    });

    it('gives one of several racing holders an expired lease', async () => {
      leaseOf(await leases.acquire(NAME, 'a', at(0), TTL));
      const attempts = await Promise.all(['b', 'c', 'd', 'e'].map((holder) => leases.acquire(NAME, holder, at(TTL), TTL)));
      expect(attempts.filter((attempt) => 'lease' in attempt)).toHaveLength(1);
    });

    it('lets either a late renewal or a takeover win, never both', async () => {
      for (let round = 0; round < 5; round++) {
        const name = `${NAME}-${round}`;
        const a = leaseOf(await leases.acquire(name, 'a', at(0), TTL));
        const [renewed, takeover] = await Promise.all([leases.renew(a, at(TTL), TTL), leases.acquire(name, 'b', at(TTL), TTL)]);
        expect([renewed !== undefined, 'lease' in takeover].filter(Boolean)).toHaveLength(1);
      }
    });

    it('keeps tokens growing across holders, renewals and releases', async () => {
      let lease = leaseOf(await leases.acquire(NAME, 'a', at(0), TTL));
      const tokens = [lease.token];
      for (let i = 1; i <= 5; i++) {
        lease = (await leases.renew(lease, at(i * 1_000), TTL))!;
        tokens.push(lease.token);
      }
      await leases.release(lease, at(6_000));
      tokens.push(leaseOf(await leases.acquire(NAME, 'b', at(6_000), TTL)).token);
      tokens.push(leaseOf(await leases.acquire(NAME, 'c', at(6_000 + TTL), TTL)).token);
      expect(tokens).toEqual([...tokens].sort((x, y) => x - y));
      expect(new Set(tokens).size).toBe(tokens.length);
    });

    it('keeps leases of different names apart', async () => {
      leaseOf(await leases.acquire(NAME, 'a', at(0), TTL));
      expect(leaseOf(await leases.acquire(`${NAME}-other`, 'b', at(0), TTL))).toMatchObject({ holder: 'b', token: 1 });
    });

    it('stores an epoch once: of racing inserts of one epoch exactly one succeeds', async () => {
      const epoch = (holder: string) => ({ name: NAME, epoch: 1, holder, expiresAt: at(TTL) });
      const inserted = await Promise.all(['a', 'b', 'c', 'd', 'e'].map((holder) => store.insert(epoch(holder))));
      expect(inserted.filter(Boolean)).toHaveLength(1);
      expect(await store.latest(NAME)).toEqual(epoch(['a', 'b', 'c', 'd', 'e'][inserted.indexOf(true)]));
    });

    it('reads the highest epoch, a released one included, and forgets only older ones', async () => {
      await store.insert({ name: NAME, epoch: 1, holder: 'a', expiresAt: at(TTL) });
      await store.insert({ name: NAME, epoch: 2, holder: 'a', expiresAt: at(2 * TTL) });
      await store.insert({ name: NAME, epoch: 3, holder: null, expiresAt: at(2 * TTL) });
      await store.forget(NAME, 3);
      expect(await store.latest(NAME)).toEqual({ name: NAME, epoch: 3, holder: null, expiresAt: at(2 * TTL) });
      await expect(store.insert({ name: NAME, epoch: 3, holder: 'b', expiresAt: at(TTL) })).resolves.toBe(false);
      // The forgotten epochs' keys are free again: proof that they were deleted.
      await expect(store.insert({ name: NAME, epoch: 2, holder: 'b', expiresAt: at(TTL) })).resolves.toBe(true);
      await expect(store.latest('eu/never-taken')).resolves.toBeUndefined();
    });
  });
}
