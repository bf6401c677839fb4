import { hkdfSync } from 'node:crypto';
import { decryptField, encryptField, isPiiEnvelope } from '../pii/field-cipher';
import { assertMasterKey, DATA_KEY_BYTES } from '../pii/key-wrapping';
import type { ClaimOutcome, IdempotencyClaim, IdempotencyStore, StoredResponse } from './idempotency-store.port';

/**
 * Stores response bodies encrypted (AES-256-GCM under a key derived from the master key, bound to
 * the scope and key): a stored response can hold personal data and secrets that are shown once,
 * such as a new API key, which must never rest in clear.
 */
export class SealedIdempotencyStore implements IdempotencyStore {
  private readonly sealingKey: Buffer;

  constructor(
    private readonly inner: IdempotencyStore,
    masterKey: Buffer,
  ) {
    assertMasterKey(masterKey);
    this.sealingKey = Buffer.from(hkdfSync('sha256', masterKey, Buffer.alloc(0), 'idempotency responses', DATA_KEY_BYTES));
  }

  async claim(claim: IdempotencyClaim): Promise<ClaimOutcome> {
    const outcome = await this.inner.claim(claim);
    if (outcome.outcome !== 'completed') return outcome;
    const sealed = outcome.response.body;
    if (!isPiiEnvelope(sealed)) throw new Error(`The stored response of ${claim.scope} ${claim.key} is not sealed`);
    return { ...outcome, response: { ...outcome.response, body: decryptField(this.sealingKey, claim.scope, claim.key, sealed) } };
  }

  complete(scope: string, key: string, token: string, response: StoredResponse): Promise<void> {
    return this.inner.complete(scope, key, token, { ...response, body: encryptField(this.sealingKey, scope, key, response.body) });
  }

  release(scope: string, key: string, token: string): Promise<void> {
    return this.inner.release(scope, key, token);
  }
}
