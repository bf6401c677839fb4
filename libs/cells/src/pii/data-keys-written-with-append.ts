import type { AppendParticipant, NewEvent } from '@tally/eventstore';
import { DataKeyDestroyedError } from './data-key-destroyed.error';
import type { DataKeyStore } from './data-key-store.port';
import { newDataKey } from './key-wrapping';
import type { PiiCodec } from './pii-codec';
import type { SqliteDataKeyStore } from './sqlite-data-key-store';

/**
 * The embedded profile's data keys: a new subject's key is created in memory and stored in the
 * same transaction as the first append whose personal data it seals, instead of in a write of its
 * own before it. A key and the first events that need it thus commit together or not at all.
 *
 * A key is durable once that append has committed; until then only this object knows it (which is
 * harmless: nothing else can have read data sealed under it).
 */
export class DataKeysWrittenWithAppend implements DataKeyStore {
  private readonly pending = new Map<string, Buffer>();
  /** The subjects whose keys the appends of the transaction in progress stored. */
  private joined: string[] = [];

  constructor(private readonly keys: SqliteDataKeyStore) {}

  async getOrCreate(subjectId: string): Promise<Buffer> {
    const pending = this.pending.get(subjectId);
    if (pending) return pending;
    const stored = this.keys.stored(subjectId);
    if (stored === null) throw new DataKeyDestroyedError(subjectId);
    if (stored) return stored;
    const created = newDataKey();
    this.pending.set(subjectId, created);
    return created;
  }

  async get(subjectId: string): Promise<Buffer | undefined> {
    return this.pending.get(subjectId) ?? this.keys.get(subjectId);
  }

  async destroy(subjectId: string): Promise<void> {
    this.pending.delete(subjectId);
    await this.keys.destroy(subjectId);
  }

  /** What the cell's event store runs in every append: it stores the pending keys the events were sealed with. */
  appendParticipant(codec: PiiCodec): AppendParticipant {
    return {
      join: (_stream, events) => this.storeKeysOf(codec, events),
      committed: () => {
        for (const subjectId of this.joined) this.pending.delete(subjectId);
        this.joined = [];
      },
      // The keys stay pending: the writes retried seal with them again and store them then.
      abandoned: () => (this.joined = []),
    };
  }

  /** A failed append's savepoint takes back the keys it stored, so they stay pending until one commits. */
  private storeKeysOf(codec: PiiCodec, events: readonly NewEvent[]): void {
    const stored: string[] = [];
    for (const subjectId of codec.subjectsOf(events)) {
      const key = this.pending.get(subjectId);
      if (!key) continue;
      if (!this.keys.insertNew(subjectId, key)) {
        // Another connection stored a key (or destroyed one) for this subject meanwhile; these
        // events are sealed under a key that will never be stored, so they must not commit.
        this.pending.delete(subjectId);
        codec.forget(subjectId);
        throw new Error(`another data key was stored for ${subjectId} while this append was sealed; retry the write`);
      }
      stored.push(subjectId);
    }
    this.joined.push(...stored);
  }
}
