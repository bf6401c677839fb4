import { randomUUID } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { describeOnMongo, MONGO_URL } from '../testing/mongo-test-databases';
import { describeReadStoreContract } from '../testing/read-store.contract';
import { connectMongo } from './mongo-read-store';

const url = MONGO_URL;
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

describeOnMongo('MongoReadStore', () => describeReadStoreContract('MongoReadStore', makeStore));
