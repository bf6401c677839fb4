import { DerivedKeys } from './derived-keys';
import { MongoClient } from 'mongodb';
import type { Clock, Upcaster } from '@tally/kernel';
import { connectEsdb, EsdbEventStore, EsdbSnapshotStore } from '@tally/eventstore';
import { MongoReadStore } from '@tally/readstore';
import type { TallyMetrics } from '@tally/observability';
import { PiiCodec, type PiiFieldSpec } from './pii/pii-codec';
import { MongoDataKeyStore } from './pii/mongo-data-key-store';
import { MongoIdempotencyStore } from './idempotency/mongo-idempotency-store';
import { SealedIdempotencyStore } from './idempotency/sealed-idempotency-store';
import { MongoLeaseStore } from './leases/mongo-lease-store';
import { ObservedEventStore } from './observed-event-store';
import { WrittenPositions } from './written-positions';
import { EventUpcasters } from './upcasting/event-upcasters';
import { UpcastingEventStore } from './upcasting/upcasting-event-store';
import type { Region } from './context/request-context';
import type { RegionStores } from './config/tally-config';
import type { Cell } from './cell';
import { ListCursors } from './list-cursor';
import { CellRegistry } from './cell-registry';

/** The production profile: per region an EventStoreDB for events and a MongoDB for read models, data keys and leases. */
export async function connectProductionCells(options: {
  regionStores: Partial<Record<Region, RegionStores>>;
  directoryMongoUrl: string;
  clock: Clock;
  pii: readonly PiiFieldSpec[];
  upcasters: readonly Upcaster[];
  masterKey: string;
  metrics?: TallyMetrics;
}): Promise<CellRegistry> {
  const masterKey = Buffer.from(options.masterKey, 'base64');
  const upcasters = new EventUpcasters(options.upcasters);
  const cells = new Map<Region, Cell>();
  for (const [region, stores] of Object.entries(options.regionStores) as [Region, RegionStores][]) {
    const esdb = connectEsdb(stores.eventStoreUrl);
    const mongo = await MongoClient.connect(stores.mongoUrl);
    const db = mongo.db(`tally_${region}`);
    const dataKeys = new MongoDataKeyStore(db, masterKey, options.clock);
    const events = new EsdbEventStore(esdb);
    const pii = new PiiCodec(dataKeys, options.pii);
    const written = new WrittenPositions();
    cells.set(region, {
      region,
      events: new ObservedEventStore(new UpcastingEventStore(events, upcasters, pii), region, written, options.metrics),
      written,
      upcasters,
      snapshots: new EsdbSnapshotStore(esdb),
      readModels: new MongoReadStore(db),
      dataKeys,
      pii,
      idempotency: new SealedIdempotencyStore(new MongoIdempotencyStore(db), masterKey),
      cursors: ListCursors.derive(masterKey, region),
      leases: new MongoLeaseStore(db),
      close: async () => {
        await events.close();
        await esdb.dispose();
        await mongo.close();
      },
    });
  }
  const directoryClient = await MongoClient.connect(options.directoryMongoUrl);
  const directoryDb = directoryClient.db('tally_directory');
  const operatorIdempotency = new SealedIdempotencyStore(new MongoIdempotencyStore(directoryDb), masterKey);
  return new CellRegistry(cells, new MongoReadStore(directoryDb), operatorIdempotency, ListCursors.derive(masterKey, 'directory'), new DerivedKeys(masterKey), () => directoryClient.close());
}
