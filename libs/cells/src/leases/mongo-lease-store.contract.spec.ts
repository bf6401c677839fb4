import { describeOnMongo, openTestDatabase } from '@tally/readstore/testing/mongo-test-databases';
import { MongoLeaseStore } from './mongo-lease-store';
import { describeLeaseStoreContract } from './testing/lease-store.contract';

async function makeStore() {
  const { db, cleanup } = await openTestDatabase('tally_leases');
  return { store: new MongoLeaseStore(db), cleanup };
}

describeOnMongo('MongoLeaseStore', () => describeLeaseStoreContract('MongoLeaseStore', makeStore));
