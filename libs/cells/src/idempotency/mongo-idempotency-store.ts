import { randomUUID } from 'node:crypto';
import type { Collection, Db } from 'mongodb';
import type { ClaimOutcome, IdempotencyClaim, IdempotencyStore, StoredResponse } from './idempotency-store.port';
import { classifyRecord, isVacant } from './idempotency-record';
import { isDuplicateKey } from '../mongo/is-duplicate-key';

interface KeyDocument {
  _id: string;
  fingerprint: string;
  token: string;
  /** The stored response as JSON text, so that any body fits a document. */
  response: string | null;
  locked_until: Date;
  expires_at: Date;
}

/**
 * Idempotency records in the region's MongoDB (collection `idempotency_keys`, one document per
 * scope and key). Claims are an insert, or a replacement conditional on the token seen, so the
 * unique `_id` decides every race without transactions or pipeline updates.
 */
export class MongoIdempotencyStore implements IdempotencyStore {
  private readonly records: Collection<KeyDocument>;
  private expiryIndex: Promise<string> | undefined;

  constructor(db: Db) {
    this.records = db.collection<KeyDocument>('idempotency_keys');
  }

  async claim(claim: IdempotencyClaim): Promise<ClaimOutcome> {
    const _id = idOf(claim.scope, claim.key);
    const existing = await this.records.findOne({ _id });
    const vacant = existing && isVacant({ completed: existing.response !== null, lockedUntil: existing.locked_until, expiresAt: existing.expires_at }, claim.now);
    if (existing && !vacant) {
      return classifyRecord(existing.fingerprint, existing.response === null ? undefined : (JSON.parse(existing.response) as StoredResponse), claim.fingerprint);
    }
    const record: KeyDocument = { _id, fingerprint: claim.fingerprint, token: randomUUID(), response: null, locked_until: claim.lockedUntil, expires_at: claim.expiresAt };
    // A claim that loses the race to another one reports it as running; the caller asks again.
    if (!(await (existing ? this.replace(existing, record) : this.insert(record)))) return { outcome: 'in_progress' };
    await this.purge(claim.now);
    return { outcome: 'new', token: record.token };
  }

  async complete(scope: string, key: string, token: string, response: StoredResponse): Promise<void> {
    await this.records.updateOne({ _id: idOf(scope, key), token }, { $set: { response: JSON.stringify(response) } });
  }

  async release(scope: string, key: string, token: string): Promise<void> {
    await this.records.deleteOne({ _id: idOf(scope, key), token });
  }

  private async insert(record: KeyDocument): Promise<boolean> {
    try {
      await this.records.insertOne(record);
      return true;
    } catch (error) {
      if (isDuplicateKey(error)) return false;
      throw error;
    }
  }

  private async replace(vacant: KeyDocument, record: KeyDocument): Promise<boolean> {
    const { modifiedCount } = await this.records.replaceOne({ _id: vacant._id, token: vacant.token }, record);
    return modifiedCount === 1;
  }

  private async purge(now: Date): Promise<void> {
    this.expiryIndex ??= this.records.createIndex({ expires_at: 1 });
    await this.expiryIndex;
    await this.records.deleteMany({ expires_at: { $lte: now } });
  }
}

const idOf = (scope: string, key: string): string => JSON.stringify([scope, key]);
