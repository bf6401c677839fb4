import { Binary, type Collection, type Db } from 'mongodb';
import type { Clock } from '@tally/kernel/clock';
import { DataKeyDestroyedError } from './data-key-destroyed.error';
import type { DataKeyStore } from './data-key-store.port';
import { assertMasterKey, newDataKey, unwrapKey, wrapKey } from './key-wrapping';
import { isDuplicateKey } from '../mongo/is-duplicate-key';

interface KeyDocument {
  _id: string;
  wrapped_key: Binary | null;
  destroyed_at: Date | null;
}

/**
 * Data keys in the region's MongoDB (collection `pii_data_keys`, one document per subject). A
 * destroyed key leaves a tombstone document (no key, the time of destruction), which is what
 * stops it from ever being created again.
 */
export class MongoDataKeyStore implements DataKeyStore {
  private readonly keys: Collection<KeyDocument>;

  constructor(
    db: Db,
    private readonly masterKey: Buffer,
    private readonly clock: Clock,
  ) {
    assertMasterKey(masterKey);
    this.keys = db.collection<KeyDocument>('pii_data_keys');
  }

  async getOrCreate(subjectId: string): Promise<Buffer> {
    // Insert first: a new subject's key costs one round trip instead of three. An existing key
    // costs two instead of one, but is rarely asked for: the codec caches every key it reads.
    const created = newDataKey();
    if (await this.insertIfAbsent(subjectId, wrapKey(this.masterKey, subjectId, created))) return created;
    const document = await this.keys.findOne({ _id: subjectId });
    if (!document?.wrapped_key) throw new DataKeyDestroyedError(subjectId);
    return unwrapKey(this.masterKey, subjectId, Buffer.from(document.wrapped_key.value()));
  }

  async get(subjectId: string): Promise<Buffer | undefined> {
    const document = await this.keys.findOne({ _id: subjectId });
    return document?.wrapped_key ? unwrapKey(this.masterKey, subjectId, Buffer.from(document.wrapped_key.value())) : undefined;
  }

  async destroy(subjectId: string): Promise<void> {
    // Only a live (or absent) key matches, so the first destruction time stays; for a key destroyed
    // already the upsert collides on _id, which means there is nothing left to do. (No pipeline
    // update: MongoDB wire-protocol servers such as FerretDB do not all support one.)
    try {
      await this.keys.updateOne({ _id: subjectId, destroyed_at: null }, { $set: { wrapped_key: null, destroyed_at: this.clock.now() } }, { upsert: true });
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
    }
  }

  /** False when a document was there: a live key (perhaps a racing writer's) or a tombstone. */
  private async insertIfAbsent(subjectId: string, wrapped: Buffer): Promise<boolean> {
    try {
      await this.keys.insertOne({ _id: subjectId, wrapped_key: new Binary(wrapped), destroyed_at: null });
      return true;
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
      return false;
    }
  }
}
