import {
  BACKWARDS,
  END,
  NO_STREAM,
  StreamNotFoundError,
  WrongExpectedVersionError,
  jsonEvent,
  type EventStoreDBClient,
  type JSONType,
} from '@eventstore/db-client';
import type { Snapshot, SnapshotStore } from '../event-store.port';
import { SNAPSHOT_STREAM_PREFIX } from './esdb-events';

const SNAPSHOT_EVENT_TYPE = 'Snapshot';

type StoredSnapshot = Omit<Snapshot, 'stream'>;

interface Latest {
  snapshot: StoredSnapshot;
  /** Revision of the snapshot event in its snapshot stream, for the optimistic append. */
  streamRevision: bigint;
}

/**
 * Snapshots in `snapshot-<stream>` streams whose metadata keeps only the newest event
 * (`maxCount: 1`). Same rules as the SQLite store: a newer snapshot of the same version is never
 * replaced by an older one; another version always replaces. A save that loses a race is dropped,
 * since a snapshot is only a shortcut.
 */
export class EsdbSnapshotStore implements SnapshotStore {
  constructor(private readonly client: EventStoreDBClient) {}

  async load<State>(stream: string, version: number): Promise<Snapshot<State> | undefined> {
    const latest = await this.latest(snapshotStreamOf(stream));
    if (!latest || latest.snapshot.version !== version) return undefined;
    return { stream, ...latest.snapshot, state: latest.snapshot.state as State };
  }

  async save(snapshot: Snapshot): Promise<void> {
    const name = snapshotStreamOf(snapshot.stream);
    const latest = await this.latest(name);
    if (latest && latest.snapshot.version === snapshot.version && latest.snapshot.revision > snapshot.revision) return;
    if (!latest) await this.client.setStreamMetadata(name, { maxCount: 1 });
    const data: StoredSnapshot = { revision: snapshot.revision, version: snapshot.version, state: snapshot.state };
    try {
      await this.client.appendToStream(name, jsonEvent({ type: SNAPSHOT_EVENT_TYPE, data: data as unknown as JSONType }), {
        expectedRevision: latest ? latest.streamRevision : NO_STREAM,
      });
    } catch (error) {
      if (!(error instanceof WrongExpectedVersionError)) throw error;
    }
  }

  private async latest(name: string): Promise<Latest | undefined> {
    try {
      for await (const resolved of this.client.readStream(name, { direction: BACKWARDS, fromRevision: END, maxCount: 1 })) {
        if (resolved.event) return { snapshot: resolved.event.data as unknown as StoredSnapshot, streamRevision: resolved.event.revision };
      }
    } catch (error) {
      if (!(error instanceof StreamNotFoundError)) throw error;
    }
    return undefined;
  }
}

function snapshotStreamOf(stream: string): string {
  return SNAPSHOT_STREAM_PREFIX + stream;
}
