import { createCipheriv, createDecipheriv, type CipherKey } from 'node:crypto';
import { RandomPool } from '@tally/kernel';

/** AES-256-GCM with a random 96-bit IV per encryption and a full 128-bit tag. */

export const IV_BYTES = 12;
export const TAG_BYTES = 16;
const ALGORITHM = 'aes-256-gcm';
const ivs = new RandomPool(IV_BYTES, 512);

export interface Sealed {
  iv: Buffer;
  tag: Buffer;
  ct: Buffer;
}

export function seal(key: CipherKey, associatedData: Buffer, plaintext: Buffer): Sealed {
  const iv = ivs.next();
  const cipher = createCipheriv(ALGORITHM, key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(associatedData);
  const ct = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return { iv, tag: cipher.getAuthTag(), ct };
}

/** Throws when any part, or the associated data, differs from what was sealed. */
export function open(key: CipherKey, associatedData: Buffer, { iv, tag, ct }: Sealed): Buffer {
  const decipher = createDecipheriv(ALGORITHM, key, iv, { authTagLength: TAG_BYTES });
  decipher.setAAD(associatedData);
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(ct), decipher.final()]);
}

