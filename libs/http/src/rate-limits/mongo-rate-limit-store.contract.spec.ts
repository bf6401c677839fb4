import { describeOnMongo, MONGO_ATOMIC, openTestDatabase } from '@tally/readstore/testing/mongo-test-databases';
import { MongoRateLimitStore } from './mongo-rate-limit-store';
import { windowsFor } from './rate-limit-policy';
import { describeRateLimitStoreContract } from './testing/rate-limit-store.contract';

/** `twin` is a second API instance over the same database. */
async function makeStore() {
  const { db, cleanup } = await openTestDatabase('tally_rate_limits');
  return {
    store: new MongoRateLimitStore(db),
    twin: new MongoRateLimitStore(db),
    slots: db.collection('rate_limit_slots'),
    cleanup,
  };
}

function describeMongoRateLimitStore(): void {
  describeRateLimitStoreContract('MongoRateLimitStore', makeStore, { atomic: MONGO_ATOMIC });

  describe('MongoRateLimitStore across instances', () => {
    const T0 = Date.parse('2026-05-01T10:00:00.000Z');
    const windows = windowsFor(2);

    it('shares a bucket between two instances over one database', async () => {
      const { store, twin, cleanup } = await makeStore();
      try {
        expect(await store.take('ten_1:live:read', 2, windows, T0)).toMatchObject({ allowed: true, remaining: 2 });
        expect(await twin.take('ten_1:live:read', 2, windows, T0 + 10)).toMatchObject({ allowed: true, remaining: 0 });
        expect(await store.take('ten_1:live:read', 1, windows, T0 + 20)).toMatchObject({ allowed: false, retryAfter: 980 });
      } finally {
        await cleanup();
      }
    });

    it('deletes slot documents once they have left the longest window', async () => {
      const { store, slots, cleanup } = await makeStore();
      try {
        await store.take('ten_1:live:read', 1, windows, T0);
        await store.take('ten_1:live:read', 1, windows, T0 + 5_000);
        expect(await slots.countDocuments({ bucket: 'ten_1:live:read' })).toBe(2);
        await store.take('ten_1:live:read', 1, windows, T0 + 10_100);
        expect(await slots.find({ bucket: 'ten_1:live:read' }, { projection: { _id: 0, slot: 1, units: 1 } }).sort({ slot: 1 }).toArray()).toEqual([
          { slot: (T0 + 5_000) / 100, units: 1 },
          { slot: (T0 + 10_100) / 100, units: 1 },
        ]);
      } finally {
        await cleanup();
      }
    });
  });
}

describeOnMongo('MongoRateLimitStore', describeMongoRateLimitStore);
