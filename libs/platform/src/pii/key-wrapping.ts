import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/*
 * Data keys are stored encrypted (AES-256-GCM) under a master key that never reaches the
 * database. The subject id is the associated data, so a wrapped key copied onto another
 * subject's row does not unwrap.
 */

export const DATA_KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;

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
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', masterKey, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(Buffer.from(subjectId, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(dataKey), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), ciphertext]);
}

export function unwrapKey(masterKey: Buffer, subjectId: string, wrapped: Buffer): Buffer {
  const decipher = createDecipheriv('aes-256-gcm', masterKey, wrapped.subarray(0, IV_BYTES), { authTagLength: TAG_BYTES });
  decipher.setAAD(Buffer.from(subjectId, 'utf8'));
  decipher.setAuthTag(wrapped.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  return Buffer.concat([decipher.update(wrapped.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]);
}
