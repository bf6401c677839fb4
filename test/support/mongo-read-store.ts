import { createHash } from 'node:crypto';
import { MongoClient } from 'mongodb';

/**
 * With TALLY_TEST_READ_STORE=mongo (and MONGO_URL), every Tally under test keeps its read models
 * and leases in MongoDB, as production does, and its events in its SQLite files: the HTTP suites
 * then run on the production read store. Each data folder gets databases of its own, named after
 * it, so that a Tally restarted on a folder (the crash suites) finds its read models again.
 */
const LEASE_TTL_MS = 300_000;

export function mongoReadStoreEnv(dataDir: string): Record<string, string> {
  const mongoUrl = mongoUrlIfAsked();
  if (!mongoUrl) return {};
  const url = withDatabase(mongoUrl, databaseOf(dataDir));
  // One process holds the leases of a test's Tally: a long lease spares the server renewals, and a settle is never left waiting for a runner whose lease a slow renewal lost.
  return { TALLY_READ_STORE: 'mongo', TALLY_READ_STORE_MONGO_URL: url, TALLY_LEASES: 'mongo', TALLY_LEASES_MONGO_URL: url, TALLY_LEASE_TTL_MS: String(LEASE_TTL_MS) };
}

/**
 * Deletes the leases a Tally on the data folder held: a crash suite restarts on a folder whose
 * last process it killed, and would otherwise wait for those leases to expire.
 */
export async function forgetDeadLeases(dataDir: string): Promise<void> {
  const mongoUrl = mongoUrlIfAsked();
  if (!mongoUrl) return;
  const client = await MongoClient.connect(mongoUrl);
  try {
    await client.db(databaseOf(dataDir)).collection('leases').deleteMany({});
  } finally {
    await client.close();
  }
}

/** Drops the databases of the data folder's Tally: its leases' and, named after it, its read models'. */
export async function dropMongoReadStore(dataDir: string): Promise<void> {
  const mongoUrl = mongoUrlIfAsked();
  if (!mongoUrl) return;
  const client = await MongoClient.connect(mongoUrl);
  try {
    const base = databaseOf(dataDir);
    const { databases } = await client.db('admin').admin().listDatabases({ nameOnly: true });
    for (const { name } of databases) if (name === base || name.startsWith(`${base}_`)) await client.db(name).dropDatabase();
  } finally {
    await client.close();
  }
}

function mongoUrlIfAsked(): string | undefined {
  const store = process.env.TALLY_TEST_READ_STORE;
  if (store === undefined || store === 'sqlite') return undefined;
  if (store !== 'mongo') throw new Error(`TALLY_TEST_READ_STORE is sqlite or mongo, not ${store}`);
  if (!process.env.MONGO_URL) throw new Error('TALLY_TEST_READ_STORE=mongo needs MONGO_URL');
  return process.env.MONGO_URL;
}

/** Short enough for MongoDB's and FerretDB's limits on a database name with a suffix. */
function databaseOf(dataDir: string): string {
  return `tally_test_${createHash('sha256').update(dataDir).digest('hex').slice(0, 16)}`;
}

/** The MongoDB URL (which names no database of its own) naming the database `name`. */
export function withDatabase(url: string, name: string): string {
  return url.replace(/\/?(\?|$)/, `/${name}$1`);
}
