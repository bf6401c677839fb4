import { randomUUID } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { describeReadStoreContract } from '../testing/read-store.contract';
import { connectMongo } from './mongo-read-store';

const url = process.env.MONGO_URL;
const run = randomUUID().slice(0, 8);
let databases = 0;
let admin: MongoClient | undefined;

afterAll(async () => {
  await admin?.close();
});

/** Each test gets its own database, dropped when the test ends. */
async function makeStore() {
  if (!url) throw new Error('MONGO_URL is not set');
  const dbName = `tally_readstore_${run}_${++databases}`;
  const store = await connectMongo(url, dbName);
  return {
    store,
    cleanup: async () => {
      admin ??= await MongoClient.connect(url);
      await admin.db(dbName).dropDatabase();
      await store.close();
    },
  };
}

if (url) {
  describeReadStoreContract('MongoReadStore', makeStore);
} else {
  describe.skip('MongoReadStore (skipped: set MONGO_URL to run against a server)', () => {
    describeReadStoreContract('MongoReadStore', makeStore);
  });
}
