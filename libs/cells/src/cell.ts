import type { EventStore, SnapshotStore } from '@tally/eventstore';
import type { ReadStore } from '@tally/readstore';
import type { PiiCodec } from './pii/pii-codec';
import type { EventUpcasters } from './upcasting/event-upcasters';
import type { DataKeyStore } from './pii/data-key-store.port';
import type { Region } from './context/request-context';
import type { IdempotencyStore } from './idempotency/idempotency-store.port';
import type { ListCursors } from './list-cursor';
import type { LeaseStore } from './leases/lease-store.port';
import type { WrittenPositions } from './written-positions';

/** A region cell: every store that holds a tenant's data lives in its region's cell, and nowhere else. */
export interface Cell {
  region: Region;
  /** Delivers every event in its type's current shape (see UpcastingEventStore). */
  events: EventStore;
  /** Where this process's appends to `events` reached, per tenant and environment. */
  written: WrittenPositions;
  /** The schema version each event type is written at. */
  upcasters: EventUpcasters;
  snapshots: SnapshotStore;
  readModels: ReadStore;
  dataKeys: DataKeyStore;
  pii: PiiCodec;
  idempotency: IdempotencyStore;
  /** Signs and checks the cursors of list pages read from this cell. */
  cursors: ListCursors;
  /** Who runs each projection, process manager and poller of this cell (see LeasedRunner). */
  leases: LeaseStore;
  close(): Promise<void>;
}
