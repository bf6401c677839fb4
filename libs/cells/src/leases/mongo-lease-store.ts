import type { Collection, Db } from 'mongodb';
import type { LeaseEpoch, LeaseStore } from './lease-store.port';
import { isDuplicateKey } from '../mongo/is-duplicate-key';

interface EpochDocument {
  /** `<name>#<epoch>`: the unique key that decides every race for an epoch. */
  _id: string;
  name: string;
  epoch: number;
  holder: string | null;
  expires_at: Date;
}

/**
 * Leases in MongoDB (collection `leases`, one document per epoch). It relies only on the unique
 * `_id` of an insert, which FerretDB 1.x applies atomically too. Inserts ask for a majority, so
 * an epoch a replica-set failover could roll back is never taken for stored.
 */
export class MongoLeaseStore implements LeaseStore {
  private readonly epochs: Collection<EpochDocument>;
  private index: Promise<string> | undefined;

  constructor(db: Db) {
    this.epochs = db.collection<EpochDocument>('leases', { writeConcern: { w: 'majority' } });
  }

  async latest(name: string): Promise<LeaseEpoch | undefined> {
    await this.ensureIndex();
    const latest = await this.epochs.findOne({ name }, { sort: { epoch: -1 } });
    return latest ? { name: latest.name, epoch: latest.epoch, holder: latest.holder, expiresAt: latest.expires_at } : undefined;
  }

  async insert({ name, epoch, holder, expiresAt }: LeaseEpoch): Promise<boolean> {
    try {
      await this.epochs.insertOne({ _id: `${name}#${epoch}`, name, epoch, holder, expires_at: expiresAt });
      return true;
    } catch (error) {
      if (isDuplicateKey(error)) return false;
      throw error;
    }
  }

  async forget(name: string, epoch: number): Promise<void> {
    await this.epochs.deleteMany({ name, epoch: { $lt: epoch } });
  }

  private ensureIndex(): Promise<string> {
    // A failed attempt is forgotten, so that the next call tries again.
    this.index ??= this.epochs.createIndex({ name: 1, epoch: -1 }).catch((error: unknown) => {
      this.index = undefined;
      throw error;
    });
    return this.index;
  }
}
