import type { Doc } from './read-store.port';

/** The fields whose keys a user chose (metadata, a subscription's quantities, a tracked event's properties). */
const USER_KEYED_FIELDS = new Set(['metadata', 'quantities', 'properties']);

/**
 * Gives every user-keyed field of a document read back, at any depth, an object without a
 * prototype, so a key such as `__proto__` or `constructor` stays a key like any other wherever the
 * document goes next (the writes keep them so; a parse or a driver makes plain objects again).
 */
export function withUserKeyedFields<T extends Doc>(doc: T): T {
  rekey(doc);
  return doc;
}

function rekey(value: unknown): void {
  if (value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    for (const item of value) rekey(item);
    return;
  }
  const object = value as Record<string, unknown>;
  for (const key of Object.keys(object)) {
    const field = object[key];
    if (field === null || typeof field !== 'object') continue;
    if (USER_KEYED_FIELDS.has(key) && !Array.isArray(field)) object[key] = Object.assign(Object.create(null) as object, field);
    else rekey(field);
  }
}
