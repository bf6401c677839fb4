import { randomBytes } from 'node:crypto';
import type { Binary } from 'mongodb';
import { ManualClock } from '@tally/kernel/clock';
import { describeOnMongo, openTestDatabase } from '@tally/readstore/testing/mongo-test-databases';
import { MongoDataKeyStore } from './mongo-data-key-store';
import { describeDataKeyStoreContract } from './testing/data-key-store.contract';

interface KeyDocument {
  _id: string;
  wrapped_key: Binary | null;
  destroyed_at: Date | null;
}

async function makeStore() {
  const { db, cleanup } = await openTestDatabase('tally_pii');
  const clock = new ManualClock();
  const masterKey = randomBytes(32);
  return {
    store: new MongoDataKeyStore(db, masterKey, clock),
    reopen: (key: Buffer) => new MongoDataKeyStore(db, key, clock),
    masterKey,
    db,
    clock,
    cleanup,
  };
}

function describeMongoDataKeyStore(): void {
  describeDataKeyStoreContract('MongoDataKeyStore', makeStore);

  describe('MongoDataKeyStore documents', () => {
    it('stores the key wrapped and records the first destruction time', async () => {
      const { store, db, clock, cleanup } = await makeStore();
      try {
        const key = await store.getOrCreate('cus_1');
        const keys = db.collection<KeyDocument>('pii_data_keys');
        const created = await keys.findOne({ _id: 'cus_1' });
        expect(Buffer.from(created!.wrapped_key!.value()).includes(key)).toBe(false);
        await store.destroy('cus_1');
        const destroyedAt = clock.now();
        clock.advance(60_000);
        await store.destroy('cus_1');
        const destroyed = await keys.findOne({ _id: 'cus_1' });
        expect(destroyed).toMatchObject({ wrapped_key: null, destroyed_at: destroyedAt });
      } finally {
        await cleanup();
      }
    });
  });
}

describeOnMongo('MongoDataKeyStore', describeMongoDataKeyStore);
