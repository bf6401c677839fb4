import { jsonEvent, type EventData, type JSONType, type RecordedEvent as EsdbRecordedEvent } from '@eventstore/db-client';
import type { EventMetadata, NewEvent, RecordedEvent } from '../event-store.port';
import { encodePosition } from './esdb-position';
import { ulidToUuid, uuidToUlid } from './ulid-uuid';

/** Snapshots live in ordinary streams; they are not events and never show in $all reads. */
export const SNAPSHOT_STREAM_PREFIX = 'snapshot-';

/** Older servers report "no position" as -1 read as an unsigned 64-bit number. */
const NO_POSITION = (1n << 64n) - 1n;

export function toEventData(event: NewEvent): EventData {
  return jsonEvent({
    id: ulidToUuid(event.id),
    type: event.type,
    data: (event.data ?? null) as JSONType,
    metadata: { ...event.metadata },
  });
}

export function toRecordedEvent(event: EsdbRecordedEvent): RecordedEvent {
  if (!event.position || event.position.commit === NO_POSITION) {
    throw new Error(`Event ${event.streamId}@${event.revision} has no position: EventStoreDB 22.6 or later is required`);
  }
  return {
    id: uuidToUlid(event.id),
    type: event.type,
    data: event.data,
    metadata: event.metadata as unknown as EventMetadata,
    stream: event.streamId,
    revision: Number(event.revision),
    position: encodePosition(event.position),
  };
}

/** System streams and events (`$…`) and snapshot streams are not part of our global order. */
export function isHiddenFromAll(event: EsdbRecordedEvent): boolean {
  return event.streamId.startsWith('$') || event.type.startsWith('$') || event.streamId.startsWith(SNAPSHOT_STREAM_PREFIX);
}
