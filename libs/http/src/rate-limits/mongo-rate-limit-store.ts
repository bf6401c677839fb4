import { MongoClient, type Collection, type Db } from 'mongodb';
import { isDuplicateKey } from '@tally/cells';
import type { RateLimitStore } from './rate-limit-store';
import { chargeFor, decide, horizonOf, SLOT_MS, slotOf, type RateLimitDecision, type LimitWindow } from './sliding-window';

interface SlotDocument {
  /** `<bucket>|<slot>` */
  _id: string;
  bucket: string;
  slot: number;
  units: number;
  /** When the slot has left the longest window; expired documents are deleted. */
  expires_at: Date;
}

const COLLECTION = 'rate_limit_slots';
/** How often each instance deletes expired slot documents (10 s). */
const SWEEP_EVERY_MS = 10_000;

/**
 * Buckets shared by every API instance (production profile): one counter document per bucket and
 * 100 ms slot. A take adds its units first and then sums the window; when that is over budget it
 * takes them back. So concurrent takes may refuse each other, but never admit more than a budget,
 * provided the server applies `$inc` atomically (MongoDB does). Two round trips per request, three
 * when refused.
 */
export class MongoRateLimitStore implements RateLimitStore {
  private readonly slots: Collection<SlotDocument>;
  private indexes: Promise<unknown> | undefined;
  private nextSweep = Number.NEGATIVE_INFINITY;

  constructor(
    db: Db,
    private readonly closeConnection: () => Promise<void> = async () => {},
  ) {
    this.slots = db.collection<SlotDocument>(COLLECTION);
  }

  static async connect(url: string): Promise<MongoRateLimitStore> {
    const client = await MongoClient.connect(url);
    return new MongoRateLimitStore(client.db('tally_rate_limits'), () => client.close());
  }

  async take(bucket: string, cost: number, windows: readonly LimitWindow[], now: number): Promise<RateLimitDecision> {
    await this.ensureIndexes();
    const slot = slotOf(now);
    const horizon = horizonOf(windows);
    const charge = chargeFor(cost, windows);
    const expiresAt = new Date((slot + 1 + horizon) * SLOT_MS);
    await this.add(bucket, slot, charge, expiresAt);
    const recent = new Array<number>(horizon).fill(0);
    for (const document of await this.slots.find({ bucket, slot: { $gt: slot - horizon } }, { projection: { slot: 1, units: 1 } }).toArray()) {
      // A slot ahead of ours (another instance's clock runs ahead) counts as the current one.
      recent[Math.max(0, slot - document.slot)] += document.units;
    }
    recent[0] -= charge;
    const decision = decide(recent, cost, windows, now);
    if (!decision.allowed) await this.add(bucket, slot, -charge, expiresAt);
    await this.sweep(now);
    return decision;
  }

  close(): Promise<void> {
    return this.closeConnection();
  }

  private ensureIndexes(): Promise<unknown> {
    this.indexes ??= this.createIndexes().catch((error: unknown) => {
      this.indexes = undefined;
      throw error;
    });
    return this.indexes;
  }

  /** One at a time: FerretDB 1.x fails a `createIndexes` that names several indexes when they exist already. */
  private async createIndexes(): Promise<void> {
    await this.slots.createIndex({ bucket: 1, slot: 1 });
    await this.slots.createIndex({ expires_at: 1 });
  }

  private async add(bucket: string, slot: number, units: number, expiresAt: Date): Promise<void> {
    const upsert = () =>
      this.slots.updateOne({ _id: `${bucket}|${slot}` }, { $inc: { units }, $setOnInsert: { bucket, slot, expires_at: expiresAt } }, { upsert: true });
    try {
      await upsert();
    } catch (error) {
      // Two first takes of a slot raced to insert it; the document exists now, so increment it.
      if (!isDuplicateKey(error)) throw error;
      await upsert();
    }
  }

  /** A TTL index would do this on MongoDB, but not every wire-protocol server has one (FerretDB 1.x). */
  private async sweep(now: number): Promise<void> {
    if (now < this.nextSweep) return;
    this.nextSweep = now + SWEEP_EVERY_MS;
    await this.slots.deleteMany({ expires_at: { $lte: new Date(now) } });
  }
}
