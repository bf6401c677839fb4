import { open, seal } from './aead';

/** One JSON value sealed on its own, all parts base64 (the idempotency store keeps response bodies so). */
export interface PiiEnvelope {
  $pii: 'v1';
  iv: string;
  tag: string;
  ct: string;
}

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
 * AES-256-GCM over the JSON of the value. The associated data binds the ciphertext to one
 * subject and one path: moved anywhere else it fails authentication.
 */
export function encryptField(key: Buffer, subjectId: string, path: string, value: unknown): PiiEnvelope {
  const { iv, tag, ct } = seal(key, associatedData(subjectId, path), Buffer.from(JSON.stringify(value), 'utf8'));
  return { $pii: 'v1', iv: iv.toString('base64'), tag: tag.toString('base64'), ct: ct.toString('base64') };
}

/** Throws when the envelope was altered or belongs to another subject or path. */
export function decryptField(key: Buffer, subjectId: string, path: string, envelope: PiiEnvelope): unknown {
  const plain = open(key, associatedData(subjectId, path), {
    iv: Buffer.from(envelope.iv, 'base64'),
    tag: Buffer.from(envelope.tag, 'base64'),
    ct: Buffer.from(envelope.ct, 'base64'),
  });
  return JSON.parse(plain.toString('utf8'));
}

/** JSON keeps the two parts apart: ("ab", "c") and ("a", "bc") give different bytes. */
function associatedData(subjectId: string, path: string): Buffer {
  return Buffer.from(JSON.stringify([subjectId, path]), 'utf8');
}
