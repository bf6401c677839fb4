import { randomUUID } from 'node:crypto';
import { MongoClient, type Db } from 'mongodb';

/** The server the MongoDB suites run against; without it they are listed as skipped. */
export const MONGO_URL = process.env.MONGO_URL;

/**
 * Whether the server applies concurrent conditional writes of one document atomically: MongoDB
 * does; FerretDB 1.x applies `$inc` and conditional replaces as read-modify-write.
 */
export const MONGO_ATOMIC = process.env.MONGO_SERVER !== 'ferretdb';

const run = randomUUID().slice(0, 8);
let databases = 0;

/** A database of its own for each test, named after `prefix`, dropped by `cleanup`. */
export async function openTestDatabase(prefix: string): Promise<{ db: Db; cleanup(): Promise<void> }> {
  if (!MONGO_URL) throw new Error('MONGO_URL is not set');
  const client = await MongoClient.connect(MONGO_URL);
  const db = client.db(`${prefix}_${run}_${++databases}`);
  return {
    db,
    cleanup: async () => {
      await db.dropDatabase();
      await client.close();
    },
  };
}

/** Runs `suite` against the server at MONGO_URL, or lists it as skipped without one. */
export function describeOnMongo(name: string, suite: () => void): void {
  if (MONGO_URL) suite();
  else describe.skip(`${name} (skipped: set MONGO_URL to run against a server)`, suite);
}

/** The store's database, as a process sees it that dies at the first call `dies` names: that call and every later one fail. */
export function dyingAt(db: Db, dies: (collection: string, method: string) => boolean): Db {
  let dead = false;
  return new Proxy(db, {
    get(target, property, receiver) {
      if (property !== 'collection') return Reflect.get(target, property, receiver);
      return (name: string) =>
        new Proxy(target.collection(name), {
          get(collection, method, inner) {
            const value = Reflect.get(collection, method, inner);
            if (typeof value !== 'function') return value;
            return (...args: unknown[]) => {
              dead ||= dies(name, String(method));
              if (dead) return Promise.reject(new Error('the process died'));
              return value.apply(collection, args);
            };
          },
        });
    },
  });
}
