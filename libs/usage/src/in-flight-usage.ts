import type { UsageRecord } from './domain/usage.events';

/** How many events a cell keeps in flight at most; beyond it the oldest batches go first, and copies of their events are answered as new. */
export const MAX_IN_FLIGHT_EVENTS = 100_000;

/**
 * The events this API process accepted in one cell that the usage projection may not have counted
 * yet, by dedupe key: what a copy sent meanwhile is a duplicate of. A batch is remembered once it is
 * in the log, so a copy checked after that is appended after it and the projection counts the
 * original, as the answer says; it is forgotten once the projection's checkpoint passes it, when
 * the dedupe index holds its keys. Of two batches in flight with one key (copies checked at the
 * same moment), the earlier in the log is the original.
 */
export class InFlightUsage {
  /** In the order of their positions. */
  private readonly batches: { position: bigint; keys: string[] }[] = [];
  private readonly originals = new Map<string, { position: bigint; record: UsageRecord }>();
  private events = 0;

  constructor(private readonly capacity = MAX_IN_FLIGHT_EVENTS) {}

  originalOf(key: string): UsageRecord | undefined {
    return this.originals.get(key)?.record;
  }

  /** The events of the batch at `position` that it counts first, by key. */
  remember(position: bigint, counted: ReadonlyMap<string, UsageRecord>): void {
    let at = this.batches.length;
    while (at > 0 && this.batches[at - 1].position > position) at--;
    this.batches.splice(at, 0, { position, keys: [...counted.keys()] });
    for (const [key, record] of counted) {
      const known = this.originals.get(key);
      if (!known || known.position > position) this.originals.set(key, { position, record });
    }
    this.events += counted.size;
    while (this.events > this.capacity) this.forget(this.batches.shift()!);
  }

  /** Lets go of the batches the usage projection has counted (its checkpoint is at or past them). */
  forgetCounted(checkpoint: bigint | undefined): void {
    while (checkpoint !== undefined && this.batches.length > 0 && this.batches[0].position <= checkpoint) this.forget(this.batches.shift()!);
  }

  private forget({ position, keys }: { position: bigint; keys: string[] }): void {
    for (const key of keys) if (this.originals.get(key)?.position === position) this.originals.delete(key);
    this.events -= keys.length;
  }
}
