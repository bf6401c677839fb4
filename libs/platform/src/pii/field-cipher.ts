import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/** An encrypted field value as stored inside an event: all parts base64. */
export interface PiiEnvelope {
  $pii: 'v1';
  iv: string;
  tag: string;
  ct: string;
}

const IV_BYTES = 12;
const TAG_BYTES = 16;

export function isPiiEnvelope(value: unknown): value is PiiEnvelope {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Record<string, unknown>;
  return (
    candidate.$pii === 'v1' &&
    typeof candidate.iv === 'string' &&
    typeof candidate.tag === 'string' &&
    typeof candidate.ct === 'string'
  );
}

/**
 * AES-256-GCM over the JSON of the value with a fresh random IV. The associated data binds the
 * ciphertext to one subject and one field: moved anywhere else it fails authentication.
 */
export function encryptField(key: Buffer, subjectId: string, path: string, value: unknown): PiiEnvelope {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(associatedData(subjectId, path));
  const ct = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
  return { $pii: 'v1', iv: iv.toString('base64'), tag: cipher.getAuthTag().toString('base64'), ct: ct.toString('base64') };
}

/** Throws when the envelope was altered or belongs to another subject or field. */
export function decryptField(key: Buffer, subjectId: string, path: string, envelope: PiiEnvelope): unknown {
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(envelope.iv, 'base64'), { authTagLength: TAG_BYTES });
  decipher.setAAD(associatedData(subjectId, path));
  decipher.setAuthTag(Buffer.from(envelope.tag, 'base64'));
  const plain = Buffer.concat([decipher.update(Buffer.from(envelope.ct, 'base64')), decipher.final()]);
  return JSON.parse(plain.toString('utf8'));
}

/** JSON keeps the two parts apart: ("ab", "c") and ("a", "bc") give different bytes. */
function associatedData(subjectId: string, path: string): Buffer {
  return Buffer.from(JSON.stringify([subjectId, path]), 'utf8');
}
