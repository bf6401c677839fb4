import { DerivedKeys } from './derived-keys';
import { closeSync, existsSync, fsyncSync, linkSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import type { Clock, Upcaster } from '@tally/kernel';
import { openSqliteDatabase, SqliteEventStore, SqliteSnapshotStore, type SqliteDatabase, type WalCheckpoints } from '@tally/eventstore';
import { MongoReadStore, SqliteReadStore, type ReadStore } from '@tally/readstore';
import type { TallyMetrics } from '@tally/observability';
import { PiiCodec, type PiiFieldSpec } from './pii/pii-codec';
import { SqliteDataKeyStore } from './pii/sqlite-data-key-store';
import { DataKeysWrittenWithAppend } from './pii/data-keys-written-with-append';
import { SealedIdempotencyStore } from './idempotency/sealed-idempotency-store';
import { SqliteIdempotencyStore } from './idempotency/sqlite-idempotency-store';
import { MemoryLeaseStore } from './leases/memory-lease-store';
import { MongoLeaseStore } from './leases/mongo-lease-store';
import type { LeaseStore } from './leases/lease-store.port';
import { ObservedEventStore } from './observed-event-store';
import { WrittenPositions } from './written-positions';
import { EventUpcasters } from './upcasting/event-upcasters';
import { UpcastingEventStore } from './upcasting/upcasting-event-store';
import type { Region } from './context/request-context';
import type { Cell } from './cell';
import { DirectoryChanges, SignallingSqliteReadStore } from './directory-changes';
import { ListCursors } from './list-cursor';
import { CellRegistry } from './cell-registry';

/**
 * The embedded profile: one SQLite file per region (events, read models and data keys of that
 * region together, so a projection's writes and its checkpoint commit in one transaction), and
 * one file for the global key directory.
 */
export function openEmbeddedCells(options: {
  dataDir: string;
  regions: readonly Region[];
  clock: Clock;
  pii: readonly PiiFieldSpec[];
  upcasters: readonly Upcaster[];
  masterKey?: string;
  /** Times appends; the command-line tools open cells without. */
  metrics?: TallyMetrics;
  /**
   * Holds the leases in the database this URL names, so that several processes can share the data
   * folder (TALLY_LEASES=mongo); without it this process holds every lease.
   */
  leasesMongoUrl?: string;
  /**
   * Keeps the read models (each region's and the key directory's) in MongoDB, as production does,
   * in databases named after the one this URL names (`<name>_eu`, `<name>_directory`); without it
   * they are in the SQLite files.
   */
  readStoreMongoUrl?: string;
  /** How the region files' connections checkpoint: `as-a-backstop` beside a worker thread that commits to the same files. */
  walCheckpoints?: WalCheckpoints;
  /**
   * The key directory is written by a worker in another process (an API process beside the one that
   * runs the worker), whose commits this process never hears of: the registry then reports no
   * directory changes, so nothing here caches directory entries (the API reads its keys per
   * request, as production's does).
   */
  directoryWrittenElsewhere?: boolean;
}): CellRegistry {
  mkdirSync(options.dataDir, { recursive: true });
  const masterKey = options.masterKey ? Buffer.from(options.masterKey, 'base64') : localMasterKey(options.dataDir);
  const upcasters = new EventUpcasters(options.upcasters);
  const cells = new Map<Region, Cell>();
  const mongoReadModels = options.readStoreMongoUrl === undefined ? undefined : new MongoClient(options.readStoreMongoUrl);
  const readModelsIn = (db: SqliteDatabase, name: string): ReadStore => (mongoReadModels ? new MongoReadStore(mongoReadModels.db(`${mongoReadModels.db().databaseName}_${name}`)) : new SqliteReadStore(db));
  for (const region of options.regions) {
    const db = openSqliteDatabase(join(options.dataDir, `${region}.sqlite`), options.walCheckpoints);
    const dataKeys = new DataKeysWrittenWithAppend(new SqliteDataKeyStore(db, masterKey, options.clock));
    const pii = new PiiCodec(dataKeys, options.pii);
    const leases = openLeases(options.leasesMongoUrl);
    const written = new WrittenPositions();
    cells.set(region, {
      region,
      events: new ObservedEventStore(new UpcastingEventStore(new SqliteEventStore(db, [dataKeys.appendParticipant(pii)]), upcasters, pii), region, written, options.metrics),
      written,
      upcasters,
      snapshots: new SqliteSnapshotStore(db),
      readModels: readModelsIn(db, region),
      dataKeys,
      pii,
      idempotency: new SealedIdempotencyStore(new SqliteIdempotencyStore(db), masterKey),
      cursors: ListCursors.derive(masterKey, region),
      leases: leases.store,
      close: async () => {
        db.close();
        await leases.close();
      },
    });
  }
  const directoryDb = openSqliteDatabase(join(options.dataDir, 'directory.sqlite'));
  const operatorIdempotency = new SealedIdempotencyStore(new SqliteIdempotencyStore(directoryDb), masterKey);
  const closeDirectory = async () => {
    directoryDb.close();
    await mongoReadModels?.close();
  };
  const cursors = ListCursors.derive(masterKey, 'directory');
  // Production's directory signals no changes either, nor one another process writes: the API reads its keys without a cache.
  if (mongoReadModels || options.directoryWrittenElsewhere) return new CellRegistry(cells, readModelsIn(directoryDb, 'directory'), operatorIdempotency, cursors, new DerivedKeys(masterKey), closeDirectory);
  const directoryChanges = new DirectoryChanges();
  const directory = new SignallingSqliteReadStore(directoryDb, directoryChanges);
  return new CellRegistry(cells, directory, operatorIdempotency, cursors, new DerivedKeys(masterKey), closeDirectory, directoryChanges);
}

function openLeases(mongoUrl: string | undefined): { store: LeaseStore; close: () => Promise<void> } {
  if (!mongoUrl) return { store: new MemoryLeaseStore(), close: async () => undefined };
  // The driver connects on first use, so opening stays synchronous.
  const client = new MongoClient(mongoUrl);
  return { store: new MongoLeaseStore(client.db()), close: () => client.close() };
}

/**
 * The embedded profile keeps its master key beside the data, created on first start. The key is
 * written to a temporary file and linked into place, so `master.key` only ever appears whole, and
 * when two processes start at once the first link wins and both use that key.
 */
function localMasterKey(dataDir: string): Buffer {
  const file = join(dataDir, 'master.key');
  if (!existsSync(file)) {
    const temporary = `${file}.${process.pid}.tmp`;
    try {
      const fd = openSync(temporary, 'w', 0o600);
      writeSync(fd, randomBytes(32).toString('base64'));
      fsyncSync(fd);
      closeSync(fd);
      linkSync(temporary, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      rmSync(temporary, { force: true });
    }
  }
  return Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
}
