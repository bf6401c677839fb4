import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '@tally/kernel';
import { describeOnMongo, openTestDatabase } from '@tally/readstore/testing/mongo-test-databases';
import { openEmbeddedCells } from './embedded-cells';

describeOnMongo('the embedded profile with its read models in MongoDB (TALLY_READ_STORE=mongo)', () => {
  it('keeps each region’s read models and the key directory’s in databases named after the URL’s, its events in SQLite', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'tally-embedded-mongo-'));
    const { db, cleanup } = await openTestDatabase('tally_embedded');
    const url = process.env.MONGO_URL!.replace(/\/?(\?|$)/, `/${db.databaseName}$1`);
    const cells = openEmbeddedCells({ dataDir, regions: ['eu', 'us'], clock: new ManualClock(), pii: [], upcasters: [], readStoreMongoUrl: url });
    const client = db.client;
    try {
      await cells.cell('eu').readModels.commit([{ op: 'upsert', collection: 'customers', doc: { id: 'cus_1', region: 'eu' }, position: 1n }], { name: 'customers', position: 1n });
      await cells.directory.commit([{ op: 'upsert', collection: 'api_keys', doc: { id: 'key_1' }, position: 1n }]);

      expect(await client.db(`${db.databaseName}_eu`).collection('customers').countDocuments({ _id: 'cus_1' as never })).toBe(1);
      expect(await client.db(`${db.databaseName}_us`).collection('customers').countDocuments()).toBe(0);
      expect(await client.db(`${db.databaseName}_directory`).collection('api_keys').countDocuments({ _id: 'key_1' as never })).toBe(1);
      expect(await cells.cell('eu').readModels.getCheckpoint('customers')).toBe(1n);
      expect(cells.directoryChanges).toBeUndefined();
      expect(await cells.cell('eu').events.headPosition()).toBeUndefined();
    } finally {
      await cells.close();
      for (const suffix of ['eu', 'us', 'directory']) await client.db(`${db.databaseName}_${suffix}`).dropDatabase();
      await cleanup();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
