import type { EventStore, RecordedEvent } from '@tally/eventstore';
import type { ReadStore } from '@tally/readstore';
import type { PiiCodec } from '@tally/cells';
import type { Projection } from './projection';
import type { UnitOfWork } from './unit-of-work';

/** Where a projection reads from and writes to, and under which checkpoint name. */
export interface ProjectionBinding {
  projection: Projection;
  events: EventStore;
  pii: PiiCodec;
  store: ReadStore;
  checkpoint: string;
}

/** Hands one stored event, personal data decoded, to the projection inside the batch's unit of work. */
export async function applyEvent(binding: ProjectionBinding, event: RecordedEvent, unit: UnitOfWork): Promise<void> {
  const decoded = { ...event, data: await binding.pii.decode(event.type, event.data) };
  await binding.projection.handle(decoded, unit.writerFor(event));
}

export async function ensureCollections(binding: ProjectionBinding): Promise<void> {
  for (const collection of binding.projection.collections) {
    await binding.store.ensureCollection(collection.name, collection.indexes);
  }
  for (const keySet of binding.projection.keySets ?? []) await binding.store.ensureKeySet(keySet);
}
