import { randomUUID } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { MongoLeaseStore } from './mongo-lease-store';
import { describeLeaseStoreContract } from './testing/lease-store.contract';

const url = process.env.MONGO_URL;
const run = randomUUID().slice(0, 8);
let databases = 0;

/** Each test gets its own database, dropped when the test ends. */
async function makeStore() {
  if (!url) throw new Error('MONGO_URL is not set');
  const client = await MongoClient.connect(url);
  const db = client.db(`tally_leases_${run}_${++databases}`);
  return {
    store: new MongoLeaseStore(db),
    cleanup: async () => {
      await db.dropDatabase();
      await client.close();
    },
  };
}

if (url) {
  describeLeaseStoreContract('MongoLeaseStore', makeStore);
} else {
  describe.skip('MongoLeaseStore (skipped: set MONGO_URL to run against a server)', () => {
    describeLeaseStoreContract('MongoLeaseStore', makeStore);
  });
}
