import { applyEvent, ensureCollections, type ProjectionBinding } from './projection-source';
import { UnitOfWork } from './unit-of-work';

const PAGE = 1_000;
/**
 * Events per commit while catching up. A commit writes each page it changed to the WAL once, and
 * the unit of work keeps one write per document, so when updates are spread over a large
 * collection (customers updated at random) few large commits write far less than many small ones.
 * The unit of work holds the batch's documents in memory until then (about 60 MB at this size for
 * the customers benchmark).
 */
const COMMIT_EVERY = 25_000;
/** Documents waiting to commit that make a commit sooner: an event may write many (a usage batch, a thousand). */
const COMMIT_AT_WRITES = 100_000;
/**
 * Committed documents the projection reads (the customer an update folds into) kept in memory
 * across commits: a catch-up is their only writer, and each read from the store costs a lookup in
 * a B-tree much larger than SQLite's page cache and a JSON parse.
 */
const KEEP_COMMITTED = 25_000;

export interface CatchUpProgress {
  checkpoint: string;
  events: number;
  position: bigint;
  head: bigint;
}

/** Applies every event after the projection's checkpoint, in batches, and returns how many it handled. */
export async function catchUpProjection(binding: ProjectionBinding, onProgress: (progress: CatchUpProgress) => void = () => {}): Promise<number> {
  const { projection, events, store, checkpoint } = binding;
  await ensureCollections(binding);
  const head = (await events.headPosition()) ?? 0n;
  let from = await store.recoverCheckpoint(checkpoint);
  let handled = 0;
  const unit = new UnitOfWork(store, KEEP_COMMITTED);
  let uncommitted = 0;
  for (;;) {
    const page = await events.readAll({ fromPosition: from, limit: PAGE, filter: { streamPrefixes: projection.streamPrefixes } });
    if (page.length === 0) break;
    for (const event of page) await applyEvent(binding, event, unit);
    from = page[page.length - 1].position;
    handled += page.length;
    uncommitted += page.length;
    if (uncommitted >= COMMIT_EVERY || unit.size >= COMMIT_AT_WRITES) {
      await unit.commit(checkpoint, from);
      uncommitted = 0;
    }
    onProgress({ checkpoint, events: handled, position: from, head });
  }
  if (uncommitted > 0) await unit.commit(checkpoint, from);
  onProgress({ checkpoint, events: handled, position: head, head });
  return handled;
}

/**
 * Drops the documents and checkpoints of the given projections, then replays the log into each.
 * Pass every projection of a store: projections share collections (every resource projection
 * writes the public event log), and a shared collection is emptied for all of them. Run it with the
 * service stopped: a live runner of the same projection would race it.
 */
export async function rebuildProjections(bindings: readonly ProjectionBinding[], onProgress?: (progress: CatchUpProgress) => void): Promise<number> {
  const byStore = new Map<ProjectionBinding['store'], ProjectionBinding[]>();
  for (const binding of bindings) byStore.set(binding.store, [...(byStore.get(binding.store) ?? []), binding]);
  for (const [store, shared] of byStore) {
    const collections = new Set(shared.flatMap((b) => [...b.projection.collections.map((c) => c.name), ...(b.projection.keySets ?? [])]));
    await store.reset([...collections], shared.map((b) => b.checkpoint));
  }
  let handled = 0;
  for (const binding of bindings) handled += await catchUpProjection(binding, onProgress);
  return handled;
}
