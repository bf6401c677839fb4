import { describeOnMongo, MONGO_ATOMIC, openTestDatabase } from '@tally/readstore/testing/mongo-test-databases';
import { MongoIdempotencyStore } from './mongo-idempotency-store';
import { describeIdempotencyStoreContract } from './testing/idempotency-store.contract';

async function makeStore() {
  const { db, cleanup } = await openTestDatabase('tally_idem');
  return { store: new MongoIdempotencyStore(db), records: () => db.collection('idempotency_keys').countDocuments(), cleanup };
}

describeOnMongo('MongoIdempotencyStore', () => describeIdempotencyStoreContract('MongoIdempotencyStore', makeStore, { atomic: MONGO_ATOMIC }));
