import Database from 'better-sqlite3';
import { describeReadStoreContract } from '../testing/read-store.contract';
import { SqliteReadStore } from './sqlite-read-store';

describeReadStoreContract('SqliteReadStore', async () => {
  const db = new Database(':memory:');
  return {
    store: new SqliteReadStore(db),
    cleanup: async () => {
      db.close();
    },
  };
});
