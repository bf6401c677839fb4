import { isJsonObject } from './json-object';

/**
 * Names that every plain JavaScript object already answers to (`constructor`, `__proto__`,
 * `toString`, …). class-transformer drops such keys without a word or fails on them, so before
 * a body reaches it they are escaped with a NUL prefix, which no key of a body may carry (see
 * body-shape.middleware.ts), and unescaped where a field keeps user-chosen keys.
 */
const RESERVED = new Set(Object.getOwnPropertyNames(Object.prototype));
const ESCAPE = '\u0000';

/** A copy of the JSON value with every reserved key escaped, at any depth. */
export function escapeReservedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(escapeReservedKeys);
  if (!isJsonObject(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [RESERVED.has(key) ? ESCAPE + key : key, escapeReservedKeys(inner)]));
}

export const isEscapedKey = (key: string): boolean => key.startsWith(ESCAPE);

export const unescapeKey = (key: string): string => (isEscapedKey(key) ? key.slice(ESCAPE.length) : key);
