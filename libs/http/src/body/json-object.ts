/** A JSON object: not null, not an array. */
export const isJsonObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);
