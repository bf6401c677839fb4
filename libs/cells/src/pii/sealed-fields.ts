import { open, seal } from './aead';

const FORMAT = 2;

/** The personal fields of one event, encrypted together; stored as the event's `$pii`, parts base64. */
export interface SealedFields {
  v: typeof FORMAT;
  /** The dotted paths that held a value, in the order of the values inside `ct`. */
  fields: string[];
  iv: string;
  tag: string;
  ct: string;
}

export function isSealedFields(value: unknown): value is SealedFields {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Record<string, unknown>;
  return (
    candidate.v === FORMAT &&
    Array.isArray(candidate.fields) &&
    candidate.fields.every((path) => typeof path === 'string') &&
    typeof candidate.iv === 'string' &&
    typeof candidate.tag === 'string' &&
    typeof candidate.ct === 'string'
  );
}

/**
 * One AES-256-GCM encryption of the JSON array of the values. The associated data binds it to the
 * subject, the event type and the list of fields: moved to another subject or event type, or with
 * the list altered, it fails authentication.
 */
export function sealFields(key: Buffer, subjectId: string, eventType: string, fields: string[], values: unknown[]): SealedFields {
  const { iv, tag, ct } = seal(key, associatedData(subjectId, eventType, fields), Buffer.from(JSON.stringify(values), 'utf8'));
  return { v: FORMAT, fields, iv: iv.toString('base64'), tag: tag.toString('base64'), ct: ct.toString('base64') };
}

/** The values, in the order of `sealed.fields`; throws when anything was altered or moved. */
export function openSealedFields(key: Buffer, subjectId: string, eventType: string, sealed: SealedFields): unknown[] {
  const plain = open(key, associatedData(subjectId, eventType, sealed.fields), {
    iv: Buffer.from(sealed.iv, 'base64'),
    tag: Buffer.from(sealed.tag, 'base64'),
    ct: Buffer.from(sealed.ct, 'base64'),
  });
  return JSON.parse(plain.toString('utf8')) as unknown[];
}

/** JSON keeps the parts apart: no two different tuples give the same bytes. */
function associatedData(subjectId: string, eventType: string, fields: string[]): Buffer {
  return Buffer.from(JSON.stringify([FORMAT, subjectId, eventType, fields]), 'utf8');
}
