import { createCipheriv, createDecipheriv, randomBytes, type CipherKey } from 'node:crypto';

/** AES-256-GCM with a random 96-bit IV per encryption and a full 128-bit tag. */

export const IV_BYTES = 12;
export const TAG_BYTES = 16;
const ALGORITHM = 'aes-256-gcm';

export interface Sealed {
  iv: Buffer;
  tag: Buffer;
  ct: Buffer;
}

export function seal(key: CipherKey, associatedData: Buffer, plaintext: Buffer): Sealed {
  const iv = nextIv();
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

/*
 * IVs are drawn from the CSPRNG in bulk: each randomBytes call has a fixed cost that is several
 * times that of encrypting a small event. Every refill is a new buffer, so an IV handed out is
 * never overwritten, and no IV is handed out twice.
 */
const IVS_PER_DRAW = 512;
let ivs = Buffer.alloc(0);
let nextIvAt = 0;

function nextIv(): Buffer {
  if (nextIvAt === ivs.length) {
    ivs = randomBytes(IV_BYTES * IVS_PER_DRAW);
    nextIvAt = 0;
  }
  const iv = ivs.subarray(nextIvAt, nextIvAt + IV_BYTES);
  nextIvAt += IV_BYTES;
  return iv;
}
