/** The JSON types a condition can compare against; each matches only fields of the same type. */
export type Kind = 'string' | 'number' | 'boolean';

/** What an index orders by and what a condition checks the type of. */
export type FieldKey = readonly [key: string | number, kind: Kind | null];

/** Null and missing values; binds as SQLite's NULL_KEY, so it sorts before every other value. */
const NULL_FIELD: FieldKey = [-Infinity, null];

/**
 * The key of the field at `path`, as the SQL key and type expressions (sqlite-schema.ts) find it
 * in the document's JSON text, but read from the object itself: it follows JSON.stringify, so a
 * Date counts as its ISO string and a non-finite number as null. Booleans key as 1 and 0, as
 * json_extract gives them; an object or array keys as its JSON text and has no kind.
 */
export function fieldKey(doc: object, path: readonly string[]): FieldKey {
  let value = asJson(doc, '');
  for (const name of path) {
    if (typeof value !== 'object' || value === null || Array.isArray(value) || !Object.prototype.propertyIsEnumerable.call(value, name)) {
      return NULL_FIELD;
    }
    value = asJson((value as Record<string, unknown>)[name], name);
  }
  switch (typeof value) {
    case 'string':
      return [value, 'string'];
    case 'number':
      // JSON.stringify writes -0 as 0.
      return Number.isFinite(value) ? [value === 0 ? 0 : value, 'number'] : NULL_FIELD;
    case 'boolean':
      return [Number(value), 'boolean'];
    case 'object':
      return value === null ? NULL_FIELD : [JSON.stringify(value), null];
    default:
      // undefined, functions and symbols: JSON.stringify leaves the member out.
      return NULL_FIELD;
  }
}

/** The value JSON.stringify writes for `value` under the member name `name`. */
function asJson(value: unknown, name: string): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const json = typeof (value as { toJSON?: unknown }).toJSON === 'function' ? (value as { toJSON(key: string): unknown }).toJSON(name) : value;
  return json instanceof Number || json instanceof String || json instanceof Boolean ? json.valueOf() : json;
}
