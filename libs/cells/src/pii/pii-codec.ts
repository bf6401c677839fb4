import type { DataKeyStore } from './data-key-store.port';
import { isRecord, readPath, removePath, writePath } from './dotted-path';
import { KeyCache } from './key-cache';
import { isSealedFields, openSealedFields, sealFields, type SealedFields } from './sealed-fields';

/** What a read shows in place of a value it may not show: personal data once its key is destroyed, a secret. */
export const REDACTED = '[redacted]';

/** Which fields of one event type hold personal data, and whose data it is. */
export interface PiiFieldSpec {
  eventType: string;
  /**
   * The data subject (e.g. the customer id); must read a field that is never encrypted. Null when
   * this event carries no personal data (a process message that copied none).
   */
  subject: (data: any) => string | null;
  /** Dotted paths (`billing_address`, `tax_id.value`) and what to show once the key is destroyed. */
  fields: { path: string; redacted: unknown }[];
}

interface CompiledField {
  path: string;
  segments: string[];
  redacted: unknown;
}

interface CompiledSpec {
  subject: (data: unknown) => string | null;
  fields: CompiledField[];
  byPath: Map<string, CompiledField>;
}

/** Where the sealed personal fields sit in an event's data. */
const SEALED = '$pii';
/**
 * The keys of the subjects lately worked on: a subject's events sit close together in the log, so
 * a rebuild still loads most keys once, and the memory a worker keeps does not grow with the
 * number of customers (a billing run of 100,000 keeps what one of 10,000 does).
 */
const DEFAULT_CACHE_SIZE = 10_000;

/**
 * Encrypts the personal-data fields of events before they are stored and decrypts them when they
 * are read, with one data key per subject. The fields of one event are taken out of its data and
 * sealed together under `$pii`. Once the subject's key is destroyed every read shows the
 * redaction placeholders, while the rest of the event (ids, amounts) is untouched.
 *
 * Keys are cached in memory (the least recently used leaves first). Erasing a subject is
 * `store.destroy(id)` followed by `forget(id)` on every codec that may hold the key.
 */
export class PiiCodec {
  private readonly specs = new Map<string, CompiledSpec>();
  private readonly keys: KeyCache;

  constructor(
    private readonly store: DataKeyStore,
    specs: readonly PiiFieldSpec[],
    cacheSize = DEFAULT_CACHE_SIZE,
  ) {
    this.keys = new KeyCache(cacheSize);
    for (const spec of specs) {
      if (this.specs.has(spec.eventType)) throw new Error(`two personal-data specs for ${spec.eventType}`);
      const fields = spec.fields.map((f) => ({ path: f.path, segments: f.path.split('.'), redacted: f.redacted }));
      const nested = fields.find((f) => fields.some((other) => f !== other && f.path.startsWith(`${other.path}.`)));
      if (nested) throw new Error(`${nested.path} lies inside another personal field of ${spec.eventType}`);
      this.specs.set(spec.eventType, { subject: spec.subject, fields, byPath: new Map(fields.map((f) => [f.path, f])) });
    }
  }

  /** A copy with the present, non-null personal fields moved into `$pii`; other event types unchanged. */
  async encode(type: string, data: unknown): Promise<unknown> {
    const spec = this.specs.get(type);
    if (!spec || spec.subject(data) === null) return data;
    const fields: CompiledField[] = [];
    const values: unknown[] = [];
    for (const field of spec.fields) {
      const value = readPath(data, field.segments);
      if (value === undefined || value === null) continue;
      fields.push(field);
      values.push(value);
    }
    if (fields.length === 0) return data;
    if (Object.hasOwn(data as object, SEALED)) throw new Error(`${type} already holds ${SEALED} besides personal data in the clear`);
    const subjectId = subjectOf(spec, type, data);
    const key = this.keys.get(subjectId) ?? this.keys.remember(subjectId, await this.store.getOrCreate(subjectId));
    const paths = fields.map((field) => field.path);
    const rest = fields.reduce((remaining, field) => removePath(remaining, field.segments), data) as Record<string, unknown>;
    return { ...rest, [SEALED]: sealFields(key, subjectId, type, paths, values) };
  }

  /**
   * A copy with the personal fields restored, or set to their placeholders when the subject's key
   * is gone. Throws when the sealed fields were tampered with or moved.
   */
  async decode(type: string, data: unknown): Promise<unknown> {
    const spec = this.specs.get(type);
    if (!spec || !isRecord(data) || !Object.hasOwn(data, SEALED)) return data;
    const { [SEALED]: sealed, ...rest } = data;
    const subjectId = subjectOf(spec, type, data);
    if (!isSealedFields(sealed)) throw new Error(`the personal data of ${type} ${subjectId} cannot be decrypted: ${SEALED} is malformed`);
    const fields = sealed.fields.map((path) => {
      const field = spec.byPath.get(path);
      if (!field) throw new Error(`the personal data of ${type} ${subjectId} names ${path}, which is not a personal field of ${type}`);
      return field;
    });
    const key = this.keys.get(subjectId) ?? (await this.load(subjectId));
    const values = key ? this.open(key, subjectId, type, sealed) : fields.map((field) => field.redacted);
    // `rest` is a copy of its own: each value goes in place; writePath copies the objects along a nested path.
    fields.forEach(({ segments: [head, ...tail] }, i) => (rest[head] = writePath(rest[head], tail, values[i])));
    return rest;
  }

  /** The subjects whose keys sealed personal data in these (encoded) events. */
  subjectsOf(events: readonly { type: string; data: unknown }[]): Set<string> {
    const subjects = new Set<string>();
    for (const { type, data } of events) {
      const spec = this.specs.get(type);
      if (spec && isRecord(data) && Object.hasOwn(data, SEALED)) subjects.add(subjectOf(spec, type, data));
    }
    return subjects;
  }

  /**
   * Whether the event (sealed or already decoded) may carry personal data: its type has personal
   * fields and it names a subject. What must not be kept in the clear beside the store.
   */
  mayHoldPersonalData(type: string, data: unknown): boolean {
    const spec = this.specs.get(type);
    return spec !== undefined && isRecord(data) && spec.subject(data) !== null;
  }

  /** Drops the subject's key from the cache (after it was destroyed in the store). */
  forget(subjectId: string): void {
    this.keys.forget(subjectId);
  }

  private async load(subjectId: string): Promise<Buffer | undefined> {
    const key = await this.store.get(subjectId);
    return key && this.keys.remember(subjectId, key);
  }

  private open(key: Buffer, subjectId: string, type: string, sealed: SealedFields): unknown[] {
    try {
      return openSealedFields(key, subjectId, type, sealed);
    } catch (error) {
      throw new Error(`the personal data of ${type} ${subjectId} cannot be decrypted`, { cause: error });
    }
  }
}

function subjectOf(spec: CompiledSpec, type: string, data: unknown): string {
  const subjectId = spec.subject(data);
  if (typeof subjectId !== 'string' || subjectId === '') {
    throw new Error(`${type} carries personal data but names no subject`);
  }
  return subjectId;
}
