import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '@tally/kernel';
import { openSqliteDatabase, SqliteEventStore } from '@tally/eventstore';
import { describeEventStoreContract } from '@tally/eventstore/testing/event-store.contract';
import { PiiCodec } from '../pii/pii-codec';
import { SqliteDataKeyStore } from '../pii/sqlite-data-key-store';
import { EventUpcasters } from './event-upcasters';
import { UpcastingEventStore } from './upcasting-event-store';

// The decorated store behaves as the port says. The suite stores one `Recorded` event at schema
// version 3; two steps that change nothing make 3 that type's current version.
describeEventStoreContract(
  'SQLite behind the upcasting stage',
  async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tally-upcasting-'));
    const db = openSqliteDatabase(join(dir, 'events.db'));
    const pii = new PiiCodec(new SqliteDataKeyStore(db, randomBytes(32), new ManualClock()), []);
    const upcasters = new EventUpcasters([1, 2].map((fromVersion) => ({ eventType: 'Recorded', fromVersion, upcast: (data: unknown) => data })));
    return {
      store: new UpcastingEventStore(new SqliteEventStore(db), upcasters, pii),
      cleanup: async () => {
        db.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  },
  { startsEmpty: true, liveDeliveryWithinMs: 100 },
);
