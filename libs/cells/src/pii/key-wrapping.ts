import { randomBytes } from 'node:crypto';
import { IV_BYTES, open, seal, TAG_BYTES } from './aead';

/*
 * Data keys are stored encrypted (AES-256-GCM) under a master key that never reaches the
 * database. The subject id is the associated data, so a wrapped key copied onto another
 * subject's row does not unwrap.
 */

export const DATA_KEY_BYTES = 32;

export function assertMasterKey(masterKey: Buffer): void {
  if (masterKey.length !== DATA_KEY_BYTES) {
    throw new Error(`the personal-data master key must be ${DATA_KEY_BYTES} bytes, got ${masterKey.length}`);
  }
}

export function newDataKey(): Buffer {
  return randomBytes(DATA_KEY_BYTES);
}

/** iv ‖ tag ‖ ciphertext. */
export function wrapKey(masterKey: Buffer, subjectId: string, dataKey: Buffer): Buffer {
  const { iv, tag, ct } = seal(masterKey, Buffer.from(subjectId, 'utf8'), dataKey);
  return Buffer.concat([iv, tag, ct]);
}

export function unwrapKey(masterKey: Buffer, subjectId: string, wrapped: Buffer): Buffer {
  return open(masterKey, Buffer.from(subjectId, 'utf8'), {
    iv: wrapped.subarray(0, IV_BYTES),
    tag: wrapped.subarray(IV_BYTES, IV_BYTES + TAG_BYTES),
    ct: wrapped.subarray(IV_BYTES + TAG_BYTES),
  });
}
