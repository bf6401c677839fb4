/** Reads `a.b.c` inside plain objects; undefined when any step is missing or not an object. */
export function readPath(data: unknown, segments: readonly string[]): unknown {
  let current = data;
  for (const segment of segments) {
    if (!isRecord(current) || !Object.hasOwn(current, segment)) return undefined;
    current = current[segment];
  }
  return current;
}

/**
 * A copy of `data` with the value at the path replaced; only the objects along the path are
 * copied, so the input is never mutated. The path must exist (see readPath).
 */
export function writePath(data: unknown, segments: readonly string[], value: unknown): unknown {
  if (segments.length === 0) return value;
  const record = data as Record<string, unknown>;
  const [head, ...rest] = segments;
  return { ...record, [head]: writePath(record[head], rest, value) };
}

/** A copy of `data` without the value at the path, copied as writePath does. The path must exist. */
export function removePath(data: unknown, segments: readonly string[]): unknown {
  const record = data as Record<string, unknown>;
  const [head, ...rest] = segments;
  if (rest.length > 0) return { ...record, [head]: removePath(record[head], rest) };
  const { [head]: _removed, ...others } = record;
  return others;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
