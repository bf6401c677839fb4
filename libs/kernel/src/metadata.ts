import { DomainError, type FieldError } from './domain-error';

export type Metadata = Readonly<Record<string, string>>;

export const METADATA_MAX_KEYS = 50;
export const METADATA_MAX_KEY_LENGTH = 40;
export const METADATA_MAX_VALUE_BYTES = 500;

/** Every resource's metadata: string values, at most 50 keys, keys up to 40 characters, values up to 500 bytes. */
export function checkMetadata(metadata: Metadata, field = 'metadata'): void {
  const errors: FieldError[] = [];
  const keys = Object.keys(metadata);
  if (keys.length > METADATA_MAX_KEYS) {
    errors.push({ field, code: 'metadata.too_many_keys', message: `at most ${METADATA_MAX_KEYS} keys (got ${keys.length})` });
  }
  for (const key of keys) {
    const value = metadata[key];
    // In characters, as JSON Schema's maxLength counts them: an emoji is one.
    const length = [...key].length;
    if (length === 0 || length > METADATA_MAX_KEY_LENGTH) {
      errors.push({ field: `${field}.${key}`, code: 'metadata.invalid_key', message: `keys are 1 to ${METADATA_MAX_KEY_LENGTH} characters` });
    }
    if (typeof value !== 'string') {
      errors.push({ field: `${field}.${key}`, code: 'metadata.invalid_value', message: 'values are strings' });
    } else if (Buffer.byteLength(value, 'utf8') > METADATA_MAX_VALUE_BYTES) {
      errors.push({ field: `${field}.${key}`, code: 'metadata.value_too_long', message: `values are at most ${METADATA_MAX_VALUE_BYTES} bytes` });
    }
  }
  if (errors.length > 0) throw DomainError.invalid('request.invalid_metadata', 'The metadata breaks the limits', errors);
}

/**
 * Stripe's merge rule for updates: keys in the patch replace old values, and an empty string
 * removes a key. The patch itself keeps the limits, a key it removes too.
 */
export function mergeMetadata(current: Metadata, patch: Metadata): Metadata {
  checkMetadata(patch);
  const merged = keyedObject(Object.entries(current));
  for (const [key, value] of Object.entries(patch)) {
    if (value === '') delete merged[key];
    else merged[key] = value;
  }
  return merged;
}

/**
 * An object for user-chosen keys: without a prototype, so `constructor`, `toString` and
 * `__proto__` are keys like any other rather than inherited members or a prototype setter.
 */
export function keyedObject<V>(entries: Iterable<readonly [string, V]> = []): Record<string, V> {
  const object = Object.create(null) as Record<string, V>;
  for (const [key, value] of entries) object[key] = value;
  return object;
}

/** The same keys with the same values, whatever their order. */
export function sameMetadata(a: Metadata, b: Metadata): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => Object.hasOwn(b, key) && a[key] === b[key]);
}
