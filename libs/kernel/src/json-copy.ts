/**
 * `value` exactly as `JSON.parse(JSON.stringify(value))` gives it back, without the text in
 * between (which a command's appended events paid for on every append): arrays and plain objects
 * are copied member by member (an undefined, function or symbol member dropped, or null in an
 * array; a number that is not finite becomes null); anything else that is an object (a Big, a
 * Date, anything with `toJSON`, a class instance) goes through JSON itself. Keys become own
 * properties, as JSON.parse makes them, so a user-supplied `__proto__` stays data.
 */
export function jsonCopy(value: unknown): unknown {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      return Number.isFinite(value) ? value : null;
    case 'object':
      if (value === null) return null;
      if (Array.isArray(value)) return copyArray(value);
      if (isPlain(value)) return copyObject(value as Record<string, unknown>);
      return JSON.parse(JSON.stringify(value)) as unknown;
    case 'bigint':
      // JSON refuses it: so does the copy.
      return JSON.stringify(value);
    default:
      return undefined;
  }
}

function copyArray(array: readonly unknown[]): unknown[] {
  const copy = new Array<unknown>(array.length);
  for (let i = 0; i < array.length; i++) copy[i] = jsonCopy(array[i]) ?? null;
  return copy;
}

function copyObject(object: Record<string, unknown>): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(object)) {
    const member = jsonCopy(object[key]);
    if (member === undefined) continue;
    if (key === '__proto__') Object.defineProperty(copy, key, { value: member, enumerable: true, writable: true, configurable: true });
    else copy[key] = member;
  }
  return copy;
}

const isPlain = (value: object): boolean => {
  const prototype = Object.getPrototypeOf(value) as unknown;
  return (prototype === Object.prototype || prototype === null) && typeof (value as { toJSON?: unknown }).toJSON !== 'function';
};
