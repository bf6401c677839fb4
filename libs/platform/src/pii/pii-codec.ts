import type { DataKeyStore } from './data-key-store.port';
import { readPath, writePath } from './dotted-path';
import { decryptField, encryptField, isPiiEnvelope } from './field-cipher';

/** Which fields of one event type hold personal data, and whose data it is. */
export interface PiiFieldSpec {
  eventType: string;
  /** The data subject (e.g. the customer id); must read a field that is never encrypted. */
  subject: (data: any) => string;
  /** Dotted paths (`billing_address`, `tax_id.value`) and what to show once the key is destroyed. */
  fields: { path: string; redacted: unknown }[];
}

interface CompiledField {
  path: string;
  segments: string[];
  redacted: unknown;
}

interface CompiledSpec {
  subject: (data: unknown) => string;
  fields: CompiledField[];
}

const DEFAULT_CACHE_SIZE = 10_000;

/**
 * Encrypts the personal-data fields of events before they are stored and decrypts them when they
 * are read, with one data key per subject. Once the subject's key is destroyed every read shows
 * the redaction placeholders, while the rest of the event (ids, amounts) is untouched.
 *
 * Keys are cached in memory (the least recently used leaves first). Erasing a subject is
 * `store.destroy(id)` followed by `forget(id)` on every codec that may hold the key.
 */
export class PiiCodec {
  private readonly specs = new Map<string, CompiledSpec>();
  private readonly keys = new Map<string, Buffer>();

  constructor(
    private readonly store: DataKeyStore,
    specs: readonly PiiFieldSpec[],
    private readonly cacheSize = DEFAULT_CACHE_SIZE,
  ) {
    for (const spec of specs) {
      if (this.specs.has(spec.eventType)) throw new Error(`two personal-data specs for ${spec.eventType}`);
      this.specs.set(spec.eventType, {
        subject: spec.subject,
        fields: spec.fields.map((f) => ({ path: f.path, segments: f.path.split('.'), redacted: f.redacted })),
      });
    }
  }

  /** A copy with each present, non-null personal field encrypted; other event types unchanged. */
  async encode(type: string, data: unknown): Promise<unknown> {
    const spec = this.specs.get(type);
    if (!spec) return data;
    const plain = spec.fields.flatMap((field) => {
      const value = readPath(data, field.segments);
      return value === undefined || value === null || isPiiEnvelope(value) ? [] : [{ field, value }];
    });
    if (plain.length === 0) return data;
    const subjectId = subjectOf(spec, type, data);
    const key = this.recall(subjectId) ?? this.remember(subjectId, await this.store.getOrCreate(subjectId));
    let encoded = data;
    for (const { field, value } of plain) {
      encoded = writePath(encoded, field.segments, encryptField(key, subjectId, field.path, value));
    }
    return encoded;
  }

  /**
   * A copy with the personal fields decrypted, or replaced by their placeholders when the
   * subject's key is gone. Throws when a ciphertext was tampered with or moved.
   */
  async decode(type: string, data: unknown): Promise<unknown> {
    const spec = this.specs.get(type);
    if (!spec) return data;
    const sealed = spec.fields.flatMap((field) => {
      const envelope = readPath(data, field.segments);
      return isPiiEnvelope(envelope) ? [{ field, envelope }] : [];
    });
    if (sealed.length === 0) return data;
    const subjectId = subjectOf(spec, type, data);
    const key = this.recall(subjectId) ?? (await this.load(subjectId));
    let decoded = data;
    for (const { field, envelope } of sealed) {
      let value = field.redacted;
      if (key) {
        try {
          value = decryptField(key, subjectId, field.path, envelope);
        } catch (error) {
          throw new Error(`the personal data at ${type} ${field.path} of ${subjectId} cannot be decrypted`, { cause: error });
        }
      }
      decoded = writePath(decoded, field.segments, value);
    }
    return decoded;
  }

  /** Drops the subject's key from the cache (after it was destroyed in the store). */
  forget(subjectId: string): void {
    this.keys.delete(subjectId);
  }

  private async load(subjectId: string): Promise<Buffer | undefined> {
    const key = await this.store.get(subjectId);
    return key && this.remember(subjectId, key);
  }

  private recall(subjectId: string): Buffer | undefined {
    const key = this.keys.get(subjectId);
    if (key) {
      this.keys.delete(subjectId);
      this.keys.set(subjectId, key);
    }
    return key;
  }

  private remember(subjectId: string, key: Buffer): Buffer {
    this.keys.set(subjectId, key);
    if (this.keys.size > this.cacheSize) {
      const [oldest] = this.keys.keys();
      this.keys.delete(oldest);
    }
    return key;
  }
}

function subjectOf(spec: CompiledSpec, type: string, data: unknown): string {
  const subjectId = spec.subject(data);
  if (typeof subjectId !== 'string' || subjectId === '') {
    throw new Error(`${type} carries personal data but names no subject`);
  }
  return subjectId;
}
