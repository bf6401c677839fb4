import { randomUUID } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { MongoIdempotencyStore } from './mongo-idempotency-store';
import { describeIdempotencyStoreContract } from './testing/idempotency-store.contract';

const url = process.env.MONGO_URL;
/** FerretDB 1.x does not serialise concurrent conditional replaces of one document; MongoDB does. */
const atomic = process.env.MONGO_SERVER !== 'ferretdb';
const run = randomUUID().slice(0, 8);
let databases = 0;

/** Each test gets its own database, dropped when the test ends. */
async function makeStore() {
  if (!url) throw new Error('MONGO_URL is not set');
  const client = await MongoClient.connect(url);
  const db = client.db(`tally_idem_${run}_${++databases}`);
  return {
    store: new MongoIdempotencyStore(db),
    records: () => db.collection('idempotency_keys').countDocuments(),
    cleanup: async () => {
      await db.dropDatabase();
      await client.close();
    },
  };
}

if (url) {
  describeIdempotencyStoreContract('MongoIdempotencyStore', makeStore, { atomic });
} else {
  describe.skip('MongoIdempotencyStore (skipped: set MONGO_URL to run against a server)', () => {
    describeIdempotencyStoreContract('MongoIdempotencyStore', makeStore);
  });
}
