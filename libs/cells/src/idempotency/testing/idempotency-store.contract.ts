import type { IdempotencyClaim, IdempotencyStore, StoredResponse } from '../idempotency-store.port';

export interface IdempotencyStoreUnderTest {
  store: IdempotencyStore;
  /** How many records the store holds, expired ones included. */
  records(): Promise<number>;
  /** Closes the store and removes whatever it created. */
  cleanup(): Promise<void>;
}

const HOUR = 3_600_000;
const T0 = new Date('2026-05-01T10:00:00.000Z');
const at = (ms: number): Date => new Date(T0.getTime() + ms);

/** A claim at `ms` after T0 that lives 24 hours and locks for a minute. */
const claimAt = (ms: number, overrides: Partial<IdempotencyClaim> = {}): IdempotencyClaim => ({
  scope: 'ten_1/live POST /v1/customers',
  key: '4f1c1a0e-93a4-4c3b-9a53-0d1f8d7b2e11',
  fingerprint: 'body-a',
  now: at(ms),
  expiresAt: at(ms + 24 * HOUR),
  lockedUntil: at(ms + 60_000),
  ...overrides,
});

const created: StoredResponse = {
  status: 200,
  headers: { etag: 'W/"0"', 'original-request': 'req_1' },
  body: { id: 'cus_1', object: 'customer', name: 'Zoë « Ünïcode »', metadata: { 'a.b': 'x', $c: 'y' }, tax_ids: [], nested: [{ deep: [1, 2.5, null, true] }] },
};

/**
 * The behaviour every IdempotencyStore adapter shares. `makeStore` gives an empty store for each
 * test. `atomic` says whether the server applies a conditional single-document write atomically under
 * concurrency (MongoDB does; FerretDB 1.x does not), which the racing-claims tests need.
 */
export function describeIdempotencyStoreContract(name: string, makeStore: () => Promise<IdempotencyStoreUnderTest>, { atomic = true }: { atomic?: boolean } = {}): void {
  describe(`IdempotencyStore contract: ${name}`, () => {
    let subject: IdempotencyStoreUnderTest | undefined;
    let store: IdempotencyStore;

    beforeEach(async () => {
      subject = await makeStore();
      store = subject.store;
    });

    afterEach(async () => {
      await subject?.cleanup();
      subject = undefined;
    });

    const claimNew = async (claim: IdempotencyClaim): Promise<string> => {
      const outcome = await store.claim(claim);
      if (outcome.outcome !== 'new') throw new Error(`expected a new claim, got ${outcome.outcome}`);
      return outcome.token;
    };

    it('gives the first claim of a key a token, and reports it running to the next claim', async () => {
      await expect(store.claim(claimAt(0))).resolves.toEqual({ outcome: 'new', token: expect.any(String) });
      await expect(store.claim(claimAt(1_000))).resolves.toEqual({ outcome: 'in_progress' });
    });

    it('answers later claims with the completed response, exactly as stored', async () => {
      await store.complete(claimAt(0).scope, claimAt(0).key, await claimNew(claimAt(0)), created);
      await expect(store.claim(claimAt(1_000))).resolves.toEqual({ outcome: 'completed', response: created, sameBody: true });
      await expect(store.claim(claimAt(2_000))).resolves.toEqual({ outcome: 'completed', response: created, sameBody: true });
    });

    it('stores an error response and a response without a body', async () => {
      const problem: StoredResponse = { status: 404, headers: { 'content-type': 'application/problem+json' }, body: { status: 404, problem: 'customer.not_found' } };
      const empty: StoredResponse = { status: 204, headers: {}, body: null };
      await store.complete(claimAt(0).scope, claimAt(0).key, await claimNew(claimAt(0)), problem);
      await store.complete(claimAt(0).scope, 'other-key', await claimNew(claimAt(0, { key: 'other-key' })), empty);
      await expect(store.claim(claimAt(1_000))).resolves.toEqual({ outcome: 'completed', response: problem, sameBody: true });
      await expect(store.claim(claimAt(1_000, { key: 'other-key' }))).resolves.toEqual({ outcome: 'completed', response: empty, sameBody: true });
    });

    it('holds the key against another fingerprint too, and then answers it with the first response, flagged', async () => {
      const token = await claimNew(claimAt(0));
      await expect(store.claim(claimAt(1_000, { fingerprint: 'body-b' }))).resolves.toEqual({ outcome: 'in_progress' });
      await store.complete(claimAt(0).scope, claimAt(0).key, token, created);
      await expect(store.claim(claimAt(2_000, { fingerprint: 'body-b' }))).resolves.toEqual({ outcome: 'completed', response: created, sameBody: false });
    });

    it('keeps scopes and keys apart', async () => {
      await store.complete(claimAt(0).scope, claimAt(0).key, await claimNew(claimAt(0)), created);
      await expect(store.claim(claimAt(1_000, { scope: 'ten_1/live POST /v1/customers/cus_1/tax-ids' }))).resolves.toMatchObject({ outcome: 'new' });
      await expect(store.claim(claimAt(1_000, { scope: 'ten_1/sandbox POST /v1/customers' }))).resolves.toMatchObject({ outcome: 'new' });
      await expect(store.claim(claimAt(1_000, { key: '0b7e4f4e-5c55-4d3a-8f3e-6a1d2c9b8a70' }))).resolves.toMatchObject({ outcome: 'new' });
    });

    it('frees a released key for a new claim, with another body too', async () => {
      await store.release(claimAt(0).scope, claimAt(0).key, await claimNew(claimAt(0)));
      await expect(store.claim(claimAt(1_000, { fingerprint: 'body-b' }))).resolves.toMatchObject({ outcome: 'new' });
    });

    it('forgets a record when it expires, not before', async () => {
      await store.complete(claimAt(0).scope, claimAt(0).key, await claimNew(claimAt(0)), created);
      await expect(store.claim(claimAt(24 * HOUR - 1))).resolves.toEqual({ outcome: 'completed', response: created, sameBody: true });
      await expect(store.claim(claimAt(24 * HOUR, { fingerprint: 'body-b' }))).resolves.toMatchObject({ outcome: 'new' });
    });

    it('lets a claim whose lock lapsed be taken over, and ignores its holder from then on', async () => {
      const abandoned = await claimNew(claimAt(0));
      await expect(store.claim(claimAt(59_999))).resolves.toEqual({ outcome: 'in_progress' });
      const token = await claimNew(claimAt(60_000));
      expect(token).not.toBe(abandoned);
      await store.complete(claimAt(0).scope, claimAt(0).key, abandoned, { ...created, status: 500 });
      await store.release(claimAt(0).scope, claimAt(0).key, abandoned);
      await expect(store.claim(claimAt(61_000))).resolves.toEqual({ outcome: 'in_progress' });
      await store.complete(claimAt(0).scope, claimAt(0).key, token, created);
      await expect(store.claim(claimAt(62_000))).resolves.toEqual({ outcome: 'completed', response: created, sameBody: true });
    });

    it('keeps a completed record past its lock, until it expires', async () => {
      await store.complete(claimAt(0).scope, claimAt(0).key, await claimNew(claimAt(0)), created);
      await expect(store.claim(claimAt(HOUR))).resolves.toEqual({ outcome: 'completed', response: created, sameBody: true });
    });

    (atomic ? it : it.skip)('gives one of several racing claims the key', async () => {
      const outcomes = await Promise.all([1, 2, 3, 4, 5].map(() => store.claim(claimAt(0))));
      expect(outcomes.filter((o) => o.outcome === 'new')).toHaveLength(1);
      expect(outcomes.filter((o) => o.outcome === 'in_progress')).toHaveLength(4);
    });

    (atomic ? it : it.skip)('gives one of several racing claims an expired key', async () => {
      await store.complete(claimAt(0).scope, claimAt(0).key, await claimNew(claimAt(0)), created);
      const outcomes = await Promise.all([1, 2, 3, 4, 5].map(() => store.claim(claimAt(24 * HOUR))));
      expect(outcomes.filter((o) => o.outcome === 'new')).toHaveLength(1);
    });

    it('deletes expired records when it takes new claims', async () => {
      for (const key of ['k1', 'k2', 'k3']) await store.complete(claimAt(0).scope, key, await claimNew(claimAt(0, { key })), created);
      await claimNew(claimAt(HOUR, { key: 'k4' }));
      expect(await subject!.records()).toBe(4);
      await claimNew(claimAt(24 * HOUR, { key: 'k5' }));
      expect(await subject!.records()).toBe(2);
    });
  });
}
